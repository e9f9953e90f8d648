/**
 * The poll handler's module as a latency mode's process sees it (throttled-poll-hooks.mjs): the
 * same exports, but each poll handler runs its invocations at the CPU share of the poller's
 * memory (cpu-share.ts) and records what each took, which the mode's figures report.
 */
import * as poll from "@fleet-alerts/functions/poll";
import { type CpuShare, cpuShareOf } from "./cpu-share.js";

export * from "@fleet-alerts/functions/poll";

export interface PollInvocation {
  startedMs: number;
  /** Wall time: what Lambda would bill (loopback AWS; the device cloud's round trips included). */
  durationMs: number;
  /** Of it, the CPU the invocation used at this machine's speed, and the time it was held for the share. */
  cpuMs: number;
  heldMs: number;
}

let share: CpuShare | undefined;
const invocations: PollInvocation[] = [];

/** Runs every poll handler made from now on at `memoryMb`'s CPU share. */
export function throttlePoller(memoryMb: number): void {
  share = cpuShareOf(memoryMb);
}

/** The poll handlers' invocations so far, in the order they ended. */
export function pollInvocations(): readonly PollInvocation[] {
  return invocations;
}

export function createPollHandler(...args: Parameters<typeof poll.createPollHandler>) {
  const handler = poll.createPollHandler(...args);
  const throttled: typeof handler = async (...invocation) => {
    if (share === undefined) throw new Error("throttlePoller() was not called before the poll handler ran");
    const before = share.figures();
    const startedMs = Date.now();
    try {
      return await share.run(() => handler(...invocation));
    } finally {
      const after = (share as CpuShare).figures();
      invocations.push({
        startedMs,
        durationMs: Date.now() - startedMs,
        cpuMs: after.cpuMs - before.cpuMs,
        heldMs: after.heldMs - before.heldMs,
      });
    }
  };
  return throttled;
}
