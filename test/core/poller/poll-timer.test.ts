import {
  CHAIN_MS,
  chainStartedAt,
  delaySecondsUntil,
  nextPollTimer,
  type PollResult,
  type PollTimer,
  pollTimerSchema,
} from "@fleet-alerts/core/poller";
import { describe, expect, it } from "vitest";

const T0 = Date.parse("2026-11-27T08:00:00Z");
const EVERY_MS = 2_000;

/** The polls of the chain a watchdog starts at T0 (relative ms), each taking 300 ms and ending with `result`. */
function chainPolls(resultOf: (index: number) => PollResult): number[] {
  const polls: number[] = [];
  let timer: PollTimer | undefined = chainStartedAt("north", T0);
  for (let index = 0; timer !== undefined; index++) {
    polls.push(timer.plannedMs - T0);
    timer = nextPollTimer(timer, resultOf(index), timer.plannedMs + 300, EVERY_MS, { watchdog: index === 0 });
  }
  return polls;
}

describe("a poll chain", () => {
  it("polls every interval until its minute is over, when the next watchdog starts the next chain", () => {
    const polls = chainPolls(() => "polled");
    expect(polls).toHaveLength(30);
    expect(polls.at(-1)).toBe(58_000);
    expect(chainStartedAt("north", T0).untilMs).toBe(T0 + CHAIN_MS);
  });

  it("backs off a failing device cloud: 2, 4, 8, 16 intervals, and a watchdog whose poll fails starts none", () => {
    // Failing from the third poll on: 4, 8, 16, 32 s between the tries, not 2.
    expect(chainPolls((index) => (index >= 2 ? "failed" : "polled"))).toEqual([
      0, 2_000, 4_000, 8_000, 16_000, 32_000,
    ]);
    // Failing from the start: the watchdog alone tries, once a minute.
    expect(chainPolls(() => "failed")).toEqual([0]);
    // One failure, then well again: back to every interval at once.
    const blip = chainPolls((index) => (index === 3 ? "failed" : "polled"));
    expect(blip.slice(0, 6)).toEqual([0, 2_000, 4_000, 6_000, 10_000, 12_000]);
  });

  it("follows a poll that overran its interval at once, and waits whole seconds SQS can delay", () => {
    const timer = chainStartedAt("north", T0);
    expect(nextPollTimer(timer, "polled", T0 + 7_500, EVERY_MS, { watchdog: true })?.plannedMs).toBe(
      T0 + 7_500,
    );
    expect(delaySecondsUntil(T0 + 2_000, T0 + 300)).toBe(2);
    expect(delaySecondsUntil(T0 + 2_000, T0 + 1_600)).toBe(0);
    expect(delaySecondsUntil(T0, T0 + 5_000)).toBe(0);
  });

  it("reads only a timer it sent: anything else is refused, naming the field", () => {
    expect(pollTimerSchema.safeParse(chainStartedAt("north", T0)).success).toBe(true);
    const bad = pollTimerSchema.safeParse({ ...chainStartedAt("north", T0), failures: -1, extra: 1 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((issue) => issue.path.join(".") || issue.code).sort()).toEqual([
      "failures",
      "unrecognized_keys",
    ]);
  });
});
