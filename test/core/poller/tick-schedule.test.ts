import { nextTickMs } from "@fleet-alerts/core/poller";
import { describe, expect, it } from "vitest";

/** The ticks of one run that starts at 0, each poll taking `pollMs`, timers firing `earlyMs` early. */
function ticksOfRun(everyMs: number, deadlineMs: number, { pollMs = 200, earlyMs = 0 } = {}) {
  const ticks = [0];
  for (let planned = 0; ; ) {
    const next = nextTickMs(planned, planned + pollMs, everyMs, deadlineMs);
    if (next === undefined) return ticks;
    // The tick starts when its timer fires, a little early; the plan goes on from the plan.
    ticks.push(next - earlyMs);
    planned = next;
  }
}

describe("a run's ticks", () => {
  it("poll through the interval, as a stage's time-out of interval plus margin leaves it", () => {
    // A minute's run: its deadline is when the next run polls.
    expect(ticksOfRun(15_000, 60_000)).toEqual([0, 15_000, 30_000, 45_000]);
    expect(ticksOfRun(10_000, 60_000)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000]);
    expect(ticksOfRun(5_000, 60_000)).toHaveLength(12);
    // An interval that does not divide the minute: the last gap, to the next run, is shorter.
    expect(ticksOfRun(7_000, 60_000).at(-1)).toBe(56_000);
  });

  it("are planned from the plan, so timers that fire early never add a tick beside the next run's", () => {
    expect(ticksOfRun(10_000, 60_000, { earlyMs: 1 })).toHaveLength(6);
  });

  it("leave a tick within half an interval of the deadline to the next run", () => {
    // The run started a little late, or Lambda rounded its time left up: still six ticks.
    expect(ticksOfRun(10_000, 60_003)).toHaveLength(6);
    expect(ticksOfRun(10_000, 59_997)).toHaveLength(6);
  });

  it("follow a poll that overran its interval at once, and go on from there", () => {
    expect(nextTickMs(0, 23_000, 10_000, 60_000)).toBe(23_000);
    expect(nextTickMs(23_000, 23_500, 10_000, 60_000)).toBe(33_000);
    // A backlog that ran to the deadline: no tick after it.
    expect(nextTickMs(0, 60_000, 10_000, 60_000)).toBeUndefined();
  });
});
