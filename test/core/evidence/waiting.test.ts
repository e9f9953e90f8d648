import {
  atRiskFromMs,
  evidenceWindow,
  footageDeadline,
  notRecordedStep,
  recordedAfter,
} from "@fleet-alerts/core/evidence";
import { describe, expect, it } from "vitest";

const DAY_MS = 86_400_000;
const EVENT_MS = Date.parse("2026-03-02T10:15:30Z");

describe("how long footage is waited for", () => {
  it("waits the card's retention after the event, the stage's maximum when it is unknown or longer", () => {
    expect(footageDeadline(EVENT_MS, 7, 14)).toEqual({
      keptUntilMs: EVENT_MS + 7 * DAY_MS,
      retentionDays: 7,
    });
    expect(footageDeadline(EVENT_MS, undefined, 14)).toEqual({
      keptUntilMs: EVENT_MS + 14 * DAY_MS,
      retentionDays: null,
    });
    // A year's estimate keeps no job for a year; the manifest still says what the card was thought to hold.
    expect(footageDeadline(EVENT_MS, 365, 14)).toEqual({
      keptUntilMs: EVENT_MS + 14 * DAY_MS,
      retentionDays: 365,
    });
    expect(footageDeadline(EVENT_MS, undefined, 1 / 24).keptUntilMs).toBe(EVENT_MS + 3_600_000);
  });

  it("puts footage at risk once half of its wait has passed", () => {
    expect(atRiskFromMs(EVENT_MS, EVENT_MS + 2 * DAY_MS)).toBe(EVENT_MS + DAY_MS);
  });
});

describe("what a job without footage does", () => {
  it.each([
    { online: true, pastDeadline: false, recordedAfterWindow: false, step: { kind: "look-again" } },
    { online: false, pastDeadline: false, recordedAfterWindow: false, step: { kind: "park" } },
    {
      online: false,
      pastDeadline: true,
      recordedAfterWindow: false,
      step: { kind: "give-up", footage: "overwritten" },
    },
    {
      online: true,
      pastDeadline: true,
      recordedAfterWindow: false,
      step: { kind: "give-up", footage: "not-recorded" },
    },
    // The card moved past the window without recording it: final, online or not, however early.
    {
      online: false,
      pastDeadline: false,
      recordedAfterWindow: true,
      step: { kind: "give-up", footage: "not-recorded" },
    },
    {
      online: true,
      pastDeadline: false,
      recordedAfterWindow: true,
      step: { kind: "give-up", footage: "not-recorded" },
    },
  ])(
    "online $online, past the deadline $pastDeadline, recorded after $recordedAfterWindow: $step.kind",
    ({ step, ...facts }) => {
      expect(notRecordedStep(facts)).toEqual(step);
    },
  );
});

describe("whether the card has moved past a window", () => {
  // A day map at UTC midnight, the window 10:15:00-10:17:00 (minutes 615 and 616).
  const dateSeconds = Date.parse("2026-03-02T00:00:00Z") / 1000;
  const window = evidenceWindow(Date.parse("2026-03-02T10:16:00Z"), 60, 60);
  const map = (values: Record<number, number>) =>
    Array.from({ length: 1440 }, (_, minute) => values[minute] ?? 0);

  it("sees any minute after the window with video or GPS only, and nothing in or before it", () => {
    expect(recordedAfter(window, [{ dateSeconds, map: map({}) }])).toBe(false);
    expect(recordedAfter(window, [{ dateSeconds, map: map({ 100: 1, 615: 1, 616: 2 }) }])).toBe(false);
    expect(recordedAfter(window, [{ dateSeconds, map: map({ 617: 3 }) }])).toBe(true);
    expect(recordedAfter(window, [{ dateSeconds, map: map({ 1439: 1 }) }])).toBe(true);
    // The next day's map, wholly after the window.
    expect(recordedAfter(window, [{ dateSeconds: dateSeconds + 86_400, map: map({ 0: 1 }) }])).toBe(true);
  });
});
