/**
 * When a chain that polls every `everyMs` polls next, or undefined when it should stop: its end
 * (`deadlineMs`) is near, and the next chain's first poll comes then (poll-timer.ts).
 *
 * Polls are planned by arithmetic from the one before (`plannedMs + everyMs`), not from the time
 * a timer fired: timers fire early or late (SQS delays are whole seconds), and planning from them
 * would drift. A poll that overran its interval is followed at once. A poll planned within half
 * an interval of the end is left to the next chain, so the end's own jitter (how late the
 * watchdog ran) cannot add or drop a poll.
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
