/**
 * When a run that polls every `everyMs` polls next, or undefined when it should stop: the next run
 * is due. A stage gives such a run its interval plus the deadline margin (infra/stage-config.ts,
 * pollerTimeoutSeconds), so its deadline is when the next run's first poll comes.
 *
 * Ticks are planned by arithmetic from the one before (`plannedMs + everyMs`), not from the time
 * a timer fired: timers fire up to a millisecond early, and six of them would put a 10 s mode's
 * seventh tick just before its deadline, beside the next run's first (seen in `npm run bench`: a
 * run of 60.7 s). A tick that overran its interval is followed at once. A tick planned within half
 * an interval of the deadline is left to the next run, so the deadline's own jitter (how late the
 * run started, how Lambda rounds the time left) cannot add or drop a tick.
 */
export function nextTickMs(
  previousPlannedMs: number,
  nowMs: number,
  everyMs: number,
  deadlineMs: number,
): number | undefined {
  const plannedMs = Math.max(previousPlannedMs + everyMs, nowMs);
  return plannedMs < deadlineMs - everyMs / 2 ? plannedMs : undefined;
}
