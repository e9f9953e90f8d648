import * as z from "zod";
import { SQS_MAX_DELAY_SECONDS } from "../aws-limits.js";
import { nextTickMs } from "./tick-schedule.js";

/**
 * How long one chain of polls lives: from one run of the account's watchdog (its EventBridge
 * schedule, every minute) to the next, which starts the next chain. So a timer that is lost ends
 * its chain early and one that is duplicated ends with its minute: either way, within a minute one
 * chain polls the account again (docs/design/exactly-once.md, "The poll chain").
 */
export const CHAIN_MS = 60_000;

/** A failing account waits at most this many intervals, doubled from one failure to the next. */
const MAX_BACKOFF_DOUBLINGS = 5;

/**
 * The message that starts an account's next poll: sent by each poll of a chain, with `DelaySeconds`
 * up to its planned time, to the poll-timer queue the poller consumes. Times are wall-clock epoch ms.
 */
export const pollTimerSchema = z.strictObject({
  kind: z.literal("poll-timer"),
  account: z.string().min(1).max(64),
  /** When this poll was planned: the next is planned from it, so that rounding never drifts. */
  plannedMs: z.number().int().nonnegative(),
  /** When the chain ends: its account's next watchdog run starts the next chain. */
  untilMs: z.number().int().nonnegative(),
  /** Polls in a row that failed: the next waits 2^failures intervals (a failing device cloud is not hammered). */
  failures: z.number().int().min(0).max(MAX_BACKOFF_DOUBLINGS),
  /**
   * The token the account's lease was left held under for this poll (cursor/ports.ts): only a poll
   * with it takes the lease over while it holds. Absent: the chain holds none.
   */
  lease: z.string().min(1).max(64).optional(),
});
export type PollTimer = z.infer<typeof pollTimerSchema>;

/**
 * How a poll ended, as far as its chain is concerned. `refused`: another poll holds the lease.
 */
export type PollResult = "polled" | "failed" | "refused";

/** The chain the watchdog's poll at `nowMs` starts: that poll is its first. */
export function chainStartedAt(account: string, nowMs: number): PollTimer {
  return { kind: "poll-timer", account, plannedMs: nowMs, untilMs: nowMs + CHAIN_MS, failures: 0 };
}

/**
 * The timer of the chain's next poll after `timer`'s ended at `nowMs` with `result`, or undefined
 * when the chain ends: its minute is over (tick-schedule.ts leaves a poll planned within half an
 * interval of the end to the next chain), its watchdog's own poll failed (a device cloud that is
 * down is tried once a minute, by the watchdog), or a poll handed the lease was refused it: a copy
 * of the timer, or a late one, whose chain goes on in the poll that took the lease over (a chain
 * handed none, the watchdog's, goes on, to take the lease once it is free). A failure doubles the
 * wait, up to 32 intervals. The next timer carries `lease`, the token the lease is left under.
 */
export function nextPollTimer(
  timer: PollTimer,
  result: PollResult,
  nowMs: number,
  everyMs: number,
  { watchdog, lease }: { watchdog: boolean; lease?: string | undefined },
): PollTimer | undefined {
  if (result === "failed" && watchdog) return undefined;
  if (result === "refused" && timer.lease !== undefined) return undefined;
  const failures = result === "failed" ? Math.min(MAX_BACKOFF_DOUBLINGS, timer.failures + 1) : 0;
  const plannedMs = nextTickMs(timer.plannedMs, nowMs, everyMs * 2 ** failures, timer.untilMs);
  if (plannedMs === undefined) return undefined;
  const { lease: _handed, ...next } = timer;
  return { ...next, plannedMs, failures, ...(lease !== undefined && { lease }) };
}

/**
 * SQS's whole-second delay that brings the message closest to its planned time: rounded, not
 * raised, so that a chain's polls come on time on average (the next is planned from this one's
 * planned time, not from when it came).
 */
export function delaySecondsUntil(plannedMs: number, nowMs: number): number {
  return Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, Math.round((plannedMs - nowMs) / 1000)));
}
