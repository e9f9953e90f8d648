import { evidenceJobSchema } from "@fleet-alerts/core/evidence";
import { MAX_EVIDENCE_SECONDS } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import {
  coverage,
  type DayMap,
  evidenceWindow,
  playbackSegments,
  recordDaysTouched,
} from "../../../packages/core/src/evidence/window.js";

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;
const span = (start: string, end: string) => ({ startMs: at(start), endMs: at(end) });

/** A daily map starting at `dateIso` with the given values from minute `from` on, 0 elsewhere. */
function dayMap(dateIso: string, runs: [from: number, values: number[]][] = []): DayMap {
  const map = new Array<number>(1440).fill(0);
  for (const [from, values] of runs) map.splice(from, values.length, ...values);
  return { dateSeconds: at(dateIso) / 1000, map };
}
const minutes = (count: number, value: number) => new Array<number>(count).fill(value);

describe("evidenceWindow", () => {
  it("spans [event - before, event + after) with the start floored to the second", () => {
    expect(evidenceWindow(at("2024-03-09T10:00:00.750Z"), 30, 90)).toEqual(
      span("2024-03-09T09:59:30.000Z", "2024-03-09T10:01:30.750Z"),
    );
    expect(evidenceWindow(at("2024-03-09T10:00:00.000Z"), 60, 60)).toEqual(
      span("2024-03-09T09:59:00Z", "2024-03-09T10:01:00Z"),
    );
  });

  it("lasts at least one second", () => {
    expect(evidenceWindow(at("2024-03-09T10:00:00Z"), 0, 0)).toEqual(
      span("2024-03-09T10:00:00Z", "2024-03-09T10:00:01Z"),
    );
    // Flooring pulls the start 0.999 s back; the end stays at the event, already a second later.
    expect(evidenceWindow(at("2024-03-09T10:00:00.999Z"), 0, 0)).toEqual(
      span("2024-03-09T10:00:00Z", "2024-03-09T10:00:01Z"),
    );
    expect(evidenceWindow(at("2024-03-09T10:00:00.400Z"), 0, 0)).toEqual(
      span("2024-03-09T10:00:00Z", "2024-03-09T10:00:01Z"),
    );
  });

  it.each([
    [Number.NaN, 10, 10],
    [0, -1, 10],
    [0, 10, Number.POSITIVE_INFINITY],
  ])("refuses event %s with margins %s and %s", (event, before, after) => {
    expect(() => evidenceWindow(event, before, after)).toThrow(RangeError);
  });
});

describe("playbackSegments", () => {
  const from = at("2024-03-09T10:00:05Z");
  const lasting = (ms: number) => playbackSegments({ startMs: from, endMs: from + ms });
  const durations = (ms: number) => lasting(ms).map((segment) => segment.durationMinutes);

  it("asks for whole minutes, rounded up", () => {
    expect(lasting(10_000)).toEqual([{ index: 0, startMs: from, durationMinutes: 1 }]);
    expect(durations(MINUTE)).toEqual([1]);
    expect(durations(MINUTE + 1)).toEqual([2]);
    expect(durations(2 * MINUTE + 30_000)).toEqual([3]);
  });

  it("keeps exactly 30 minutes in one request and splits beyond", () => {
    expect(durations(30 * MINUTE)).toEqual([30]);
    expect(durations(30 * MINUTE + 1000)).toEqual([30, 1]);
    expect(durations(60 * MINUTE)).toEqual([30, 30]);
    expect(durations(61 * MINUTE)).toEqual([30, 30, 1]);
  });

  it("splits 45 minutes into consecutive requests of 30 and 15", () => {
    expect(lasting(45 * MINUTE)).toEqual([
      { index: 0, startMs: from, durationMinutes: 30 },
      { index: 1, startMs: from + 30 * MINUTE, durationMinutes: 15 },
    ]);
  });
});

describe("recordDaysTouched", () => {
  it("gives the local midnight of a window inside one day", () => {
    const window = span("2024-03-09T10:00:00Z", "2024-03-09T10:05:00Z");
    expect(recordDaysTouched(window, 0)).toEqual([at("2024-03-09T00:00:00Z") / 1000]);
    // 10:00Z is 15:30 at +05:30: that local day began at 18:30Z the day before.
    expect(recordDaysTouched(window, 330)).toEqual([at("2024-03-08T18:30:00Z") / 1000]);
    // 10:00Z is 06:30 at -03:30: that local day began at 03:30Z.
    expect(recordDaysTouched(window, -210)).toEqual([at("2024-03-09T03:30:00Z") / 1000]);
  });

  it("gives two days for a window crossing local midnight (+05:30)", () => {
    // 23:55 to 00:10 local.
    const window = span("2024-03-09T18:25:00Z", "2024-03-09T18:40:00Z");
    expect(recordDaysTouched(window, 330)).toEqual([
      at("2024-03-08T18:30:00Z") / 1000,
      at("2024-03-09T18:30:00Z") / 1000,
    ]);
    // The same instants at UTC stay in one day.
    expect(recordDaysTouched(window, 0)).toEqual([at("2024-03-09T00:00:00Z") / 1000]);
  });

  it("gives two days for a window crossing local midnight (-03:30)", () => {
    const window = span("2024-03-10T03:29:59Z", "2024-03-10T03:30:01Z");
    expect(recordDaysTouched(window, -210)).toEqual([
      at("2024-03-09T03:30:00Z") / 1000,
      at("2024-03-10T03:30:00Z") / 1000,
    ]);
  });

  it("treats the end as exclusive: a window ending at local midnight touches one day", () => {
    const window = span("2024-03-10T03:00:00Z", "2024-03-10T03:30:00Z");
    expect(recordDaysTouched(window, -210)).toEqual([at("2024-03-09T03:30:00Z") / 1000]);
  });

  it("gives every day of a window longer than a day, at the extreme offsets", () => {
    const window = span("2024-03-09T09:00:00Z", "2024-03-11T11:00:00Z");
    expect(recordDaysTouched(window, 840)).toEqual(
      ["2024-03-08T10:00:00Z", "2024-03-09T10:00:00Z", "2024-03-10T10:00:00Z", "2024-03-11T10:00:00Z"].map(
        (iso) => at(iso) / 1000,
      ),
    );
    expect(recordDaysTouched(window, -720)).toEqual(
      ["2024-03-08T12:00:00Z", "2024-03-09T12:00:00Z", "2024-03-10T12:00:00Z"].map((iso) => at(iso) / 1000),
    );
  });

  it.each([[15.5], [15 * 60], [-13 * 60]])("refuses the offset %s", (offset) => {
    expect(() => recordDaysTouched(span("2024-03-09T10:00:00Z", "2024-03-09T10:01:00Z"), offset)).toThrow(
      RangeError,
    );
  });
});

describe("coverage", () => {
  // Local day 2024-03-09 at +05:30 begins at 2024-03-08T18:30Z; 10:00Z is its minute 930.
  const day = "2024-03-08T18:30:00Z";
  const minuteOf = (iso: string) => (at(iso) - at(day)) / MINUTE;

  it("counts a fully recorded window, normal and alert minutes alike", () => {
    const window = span("2024-03-09T10:00:00Z", "2024-03-09T10:05:00Z");
    const map = dayMap(day, [[minuteOf("2024-03-09T10:00:00Z"), [1, 1, 2, 2, 1]]]);
    expect(coverage(window, [map])).toEqual({
      totalMinutes: 5,
      recordedMinutes: 5,
      missing: [],
      recordedSpan: window,
    });
  });

  it("reports gaps as merged runs, GPS-only minutes as not recorded, and the recorded span", () => {
    // 10:00:30 .. 10:09:30 touches the ten minutes 10:00 .. 10:09.
    const window = span("2024-03-09T10:00:30Z", "2024-03-09T10:09:30Z");
    const values = [3, 1, 0, 0, 3, 2, 1, 3, 3, 0]; // 10:00 .. 10:09
    const result = coverage(window, [dayMap(day, [[minuteOf("2024-03-09T10:00:00Z"), values]])]);
    expect(result).toEqual({
      totalMinutes: 10,
      recordedMinutes: 3,
      missing: [
        span("2024-03-09T10:00:30Z", "2024-03-09T10:01:00Z"), // clipped to the window's start
        span("2024-03-09T10:02:00Z", "2024-03-09T10:05:00Z"),
        span("2024-03-09T10:07:00Z", "2024-03-09T10:09:30Z"), // clipped to the window's end
      ],
      recordedSpan: span("2024-03-09T10:01:00Z", "2024-03-09T10:07:00Z"),
    });
  });

  it("clips the recorded span to the window", () => {
    const window = span("2024-03-09T10:00:20Z", "2024-03-09T10:02:40Z");
    const result = coverage(window, [dayMap(day, [[minuteOf("2024-03-09T10:00:00Z"), [1, 1, 1]]])]);
    expect(result.recordedSpan).toEqual(window);
    expect(result.missing).toEqual([]);
    expect(result.totalMinutes).toBe(3);
  });

  it("handles a window inside one minute", () => {
    const window = span("2024-03-09T10:00:10Z", "2024-03-09T10:00:50Z");
    const recorded = coverage(window, [dayMap(day, [[minuteOf("2024-03-09T10:00:00Z"), [2]]])]);
    expect(recorded).toEqual({ totalMinutes: 1, recordedMinutes: 1, missing: [], recordedSpan: window });
    const gpsOnly = coverage(window, [dayMap(day, [[minuteOf("2024-03-09T10:00:00Z"), [3]]])]);
    expect(gpsOnly).toEqual({ totalMinutes: 1, recordedMinutes: 0, missing: [window] });
    expect(gpsOnly.recordedSpan).toBeUndefined();
  });

  it("joins the maps of two local days across midnight (-03:30)", () => {
    // 23:50 .. 00:10 local at -03:30; local midnight is 03:30Z.
    const window = span("2024-03-10T03:20:00Z", "2024-03-10T03:40:00Z");
    const before = dayMap("2024-03-09T03:30:00Z", [[1430, minutes(10, 1)]]); // 23:50 .. 23:59
    const after = dayMap("2024-03-10T03:30:00Z", [[5, minutes(5, 2)]]); // 00:05 .. 00:09
    expect(coverage(window, [before, after])).toEqual({
      totalMinutes: 20,
      recordedMinutes: 15,
      missing: [span("2024-03-10T03:30:00Z", "2024-03-10T03:35:00Z")],
      recordedSpan: window,
    });
  });

  it("counts minutes absent from every map as not recorded", () => {
    const window = span("2024-03-10T03:20:00Z", "2024-03-10T03:40:00Z");
    const before = dayMap("2024-03-09T03:30:00Z", [[1430, minutes(10, 1)]]);
    expect(coverage(window, [before])).toEqual({
      totalMinutes: 20,
      recordedMinutes: 10,
      missing: [span("2024-03-10T03:30:00Z", "2024-03-10T03:40:00Z")],
      recordedSpan: span("2024-03-10T03:20:00Z", "2024-03-10T03:30:00Z"),
    });
    expect(coverage(window, [])).toEqual({ totalMinutes: 20, recordedMinutes: 0, missing: [window] });
  });

  it("handles exactly 30 and 45 minutes", () => {
    const thirty = span("2024-03-09T10:00:00Z", "2024-03-09T10:30:00Z");
    const map = dayMap(day, [[minuteOf("2024-03-09T10:00:00Z"), minutes(45, 1)]]);
    expect(coverage(thirty, [map])).toMatchObject({ totalMinutes: 30, recordedMinutes: 30, missing: [] });
    const fortyFive = span("2024-03-09T10:00:00Z", "2024-03-09T10:45:00Z");
    const result = coverage(fortyFive, [map]);
    expect(result).toMatchObject({ totalMinutes: 45, recordedMinutes: 45, recordedSpan: fortyFive });
    expect(playbackSegments(result.recordedSpan ?? thirty).map((segment) => segment.durationMinutes)).toEqual(
      [30, 15],
    );
  });

  it("refuses a map that is not 1440 minutes from a whole minute", () => {
    const window = span("2024-03-09T10:00:00Z", "2024-03-09T10:05:00Z");
    expect(() => coverage(window, [{ dateSeconds: at(day) / 1000, map: [1, 1] }])).toThrow(RangeError);
    expect(() => coverage(window, [{ ...dayMap(day), dateSeconds: at(day) / 1000 + 30 }])).toThrow(
      RangeError,
    );
  });
});

describe("what an evidence job reads, at most", () => {
  const job = (secondsBefore: number, secondsAfter: number) => ({
    version: 1,
    alertId: "east:1:gsensor",
    account: "east",
    ruleId: "gsensor",
    deviceid: "D1",
    serialno: "1",
    eventtime: "2024-03-09T23:30:00Z",
    channels: [1],
    secondsBefore,
    secondsAfter,
    severity: "critical",
    event: {},
  });

  it("record maps: two, a job's window being at most an hour each side, which no offset spreads over three days", () => {
    expect(evidenceJobSchema.safeParse(job(MAX_EVIDENCE_SECONDS, MAX_EVIDENCE_SECONDS)).success).toBe(true);
    expect(evidenceJobSchema.safeParse(job(MAX_EVIDENCE_SECONDS + 1, 0)).success).toBe(false);
    expect(evidenceJobSchema.safeParse(job(0, MAX_EVIDENCE_SECONDS + 1)).success).toBe(false);
    for (let eventMinute = 0; eventMinute < 24 * 60; eventMinute += 7)
      for (const offset of [-720, -210, 0, 330, 840]) {
        const eventMs = at("2024-03-09T00:00:00Z") + eventMinute * MINUTE;
        const window = evidenceWindow(eventMs, MAX_EVIDENCE_SECONDS, MAX_EVIDENCE_SECONDS);
        expect(recordDaysTouched(window, offset).length).toBeLessThanOrEqual(2);
      }
  });

  it("clips: four playback requests per channel, 32 channels: 128 clips in a manifest at most", () => {
    const longest = evidenceWindow(at("2024-03-09T23:30:00Z"), MAX_EVIDENCE_SECONDS, MAX_EVIDENCE_SECONDS);
    expect(playbackSegments(longest)).toHaveLength(4);
    const channels = Array.from({ length: 33 }, (_, index) => index + 1);
    expect(evidenceJobSchema.safeParse({ ...job(60, 60), channels: channels.slice(0, 32) }).success).toBe(
      true,
    );
    expect(evidenceJobSchema.safeParse({ ...job(60, 60), channels }).success).toBe(false);
  });
});
