/**
 * The poll handler's module as a latency mode's process sees it (throttled-poll-hooks.mjs): the
 * same exports, but each poll handler runs its invocations at the CPU share of the poller's
 * memory (cpu-share.ts), as Lambda runs them.
 */
import * as poll from "@fleet-alerts/functions/poll";
import { type CpuShare, cpuShareOf } from "./cpu-share.js";

export * from "@fleet-alerts/functions/poll";

let share: CpuShare | undefined;

/** Runs every poll handler's invocations from now on at `memoryMb`'s CPU share. */
export function throttlePoller(memoryMb: number): void {
  share = cpuShareOf(memoryMb);
}

export function createPollHandler(...args: Parameters<typeof poll.createPollHandler>) {
  const handler = poll.createPollHandler(...args);
  const throttled: typeof handler = (...invocation) => {
    if (share === undefined) throw new Error("throttlePoller() was not called before the poll handler ran");
    return share.run(() => handler(...invocation));
  };
  return throttled;
}
