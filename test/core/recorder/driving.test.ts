import type { TrackPoint } from "@fleet-alerts/core/context";
import { duePeriod, periodAt } from "@fleet-alerts/core/recorder";
import { describe, expect, it } from "vitest";
import { drivenMinutes, gapsOfRun, unrecordedRuns } from "../../../packages/core/src/recorder/driving.js";

const DAY = Date.parse("2026-01-04T00:00:00Z");
const MINUTE = 60_000;

/** A day's map: recorded (1) everywhere but the given runs. */
function mapWith(...runs: [from: number, to: number, value: number][]): number[] {
  const map = new Array<number>(1440).fill(1);
  for (const [from, to, value] of runs) map.fill(value, from, to);
  return map;
}

/** One point every 5 s over minutes [from, to) at `speedKmh`. */
function drive(from: number, to: number, speedKmh = 40): TrackPoint[] {
  return Array.from({ length: (to - from) * 12 }, (_, index) => ({
    timeMs: DAY + from * MINUTE + index * 5_000,
    lat: 52.5,
    lng: 13.4,
    speedKmh,
    headingDeg: 0,
  }));
}

describe("gaps of driving without video", () => {
  it("finds unrecorded runs (nothing, or GPS only) of at least the gap length within the period", () => {
    const map = mapWith([100, 105, 0], [200, 230, 3], [230, 240, 0], [1430, 1440, 0]);
    expect(unrecordedRuns(map, 0, 1440, 10)).toEqual([
      { start: 200, end: 240 },
      { start: 1430, end: 1440 },
    ]);
    // A period's bounds cut the runs.
    expect(unrecordedRuns(map, 0, 720, 10)).toEqual([{ start: 200, end: 240 }]);
  });

  it("counts a minute driven only when a point moves faster than walking pace", () => {
    const track = [...drive(10, 12, 30), ...drive(12, 14, 3)];
    expect([...drivenMinutes(track, DAY)]).toEqual([10, 11]);
  });

  it("makes one gap of a drive with short stops, and tells GPS only from nothing recorded", () => {
    const map = mapWith([200, 230, 3], [230, 260, 0]);
    const driven = drivenMinutes([...drive(205, 215), ...drive(220, 245)], DAY);
    expect(gapsOfRun({ start: 200, end: 260 }, driven, map, DAY, 10)).toEqual([
      { fromMs: DAY + 205 * MINUTE, toMs: DAY + 245 * MINUTE, minutes: 40, kind: "mixed" },
    ]);
    const gpsOnly = gapsOfRun({ start: 200, end: 230 }, drivenMinutes(drive(200, 220), DAY), map, DAY, 10);
    expect(gpsOnly).toEqual([
      { fromMs: DAY + 200 * MINUTE, toMs: DAY + 220 * MINUTE, minutes: 20, kind: "gps-only" },
    ]);
  });

  it("splits drives apart by a stop longer than the gap length, and drops those too short", () => {
    const map = mapWith([0, 600, 0]);
    const driven = drivenMinutes([...drive(10, 25), ...drive(60, 65), ...drive(100, 130)], DAY);
    expect(gapsOfRun({ start: 0, end: 600 }, driven, map, DAY, 10).map((gap) => gap.minutes)).toEqual([
      15, 30,
    ]);
  });

  it("raises nothing for a parked day: nothing recorded, nothing driven", () => {
    const map = mapWith([0, 1440, 0]);
    expect(gapsOfRun({ start: 0, end: 1440 }, new Set(), map, DAY, 10)).toEqual([]);
  });
});

describe("audit periods", () => {
  it("are due half an hour after they end, on the device cloud's days", () => {
    expect(duePeriod(DAY + 86_400_000 + 29 * MINUTE, 24, 0).startMs).toBe(DAY - 86_400_000);
    expect(duePeriod(DAY + 86_400_000 + 30 * MINUTE, 24, 0)).toMatchObject({
      startMs: DAY,
      endMs: DAY + 86_400_000,
      dayStartMs: DAY,
      fromMinute: 0,
      toMinute: 1440,
    });
    // A fleet at UTC+2: its day begins at 22:00 UTC; a 6-hour period is a quarter of its map.
    const berlinSummer = duePeriod(Date.parse("2026-07-01T07:00:00Z"), 6, 120);
    expect(berlinSummer).toMatchObject({
      startMs: Date.parse("2026-06-30T22:00:00Z"),
      dayStartMs: Date.parse("2026-06-30T22:00:00Z"),
      fromMinute: 0,
      toMinute: 360,
    });
    expect(periodAt(berlinSummer.endMs, 6, 120)).toMatchObject({ fromMinute: 360, toMinute: 720 });
  });
});
