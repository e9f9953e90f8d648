import type { RecorderGap, RecorderGapKind } from "../alerts/recorder-gap.js";
import type { TrackPoint } from "../context/gps-track.js";
import { MINUTE_RECORD } from "../devicecloud/schemas/records.js";
import { MINUTE_MS } from "./period.js";

/**
 * Below this a GPS point is not driving: a parked vehicle's fix wanders by a few km/h, and the
 * spec shows no unit of `speed` (the account's gpsSpeedUnit converts it first).
 */
export const MOVING_KMH = 5;

/** Minutes [start, end) of a day's record map. */
export interface MinuteRun {
  start: number;
  end: number;
}

/** Minutes that hold no video: nothing recorded (0) or GPS only (3). */
export function isUnrecorded(value: number | undefined): boolean {
  return value === MINUTE_RECORD.none || value === MINUTE_RECORD.gpsOnly;
}

/** Runs of unrecorded minutes of `map` within [from, to), at least `minLength` long. */
export function unrecordedRuns(
  map: readonly number[],
  from: number,
  to: number,
  minLength: number,
): MinuteRun[] {
  const runs: MinuteRun[] = [];
  let start: number | undefined;
  for (let minute = from; minute <= to; minute++) {
    const unrecorded = minute < to && isUnrecorded(map[minute]);
    if (unrecorded && start === undefined) start = minute;
    if (!unrecorded && start !== undefined) {
      if (minute - start >= minLength) runs.push({ start, end: minute });
      start = undefined;
    }
  }
  return runs;
}

/** The minutes of the day (from `dayStartMs`) in which a point shows the vehicle moving. */
export function drivenMinutes(track: readonly TrackPoint[], dayStartMs: number): Set<number> {
  const minutes = new Set<number>();
  for (const point of track)
    if (point.speedKmh > MOVING_KMH) minutes.add(Math.floor((point.timeMs - dayStartMs) / MINUTE_MS));
  return minutes;
}

/**
 * The gaps of one unrecorded run: its driven minutes grouped into drives (a stop shorter than
 * `gapMinutes`, a traffic light or a delivery, stays inside the drive), each drive of at least
 * `gapMinutes` from its first driven minute to the end of its last being one gap.
 */
export function gapsOfRun(
  run: MinuteRun,
  driven: ReadonlySet<number>,
  map: readonly number[],
  dayStartMs: number,
  gapMinutes: number,
): RecorderGap[] {
  const gaps: RecorderGap[] = [];
  let first: number | undefined;
  let last = 0;
  const close = () => {
    if (first !== undefined && last + 1 - first >= gapMinutes)
      gaps.push(gapOf(first, last + 1, map, dayStartMs));
  };
  for (let minute = run.start; minute < run.end; minute++) {
    if (!driven.has(minute)) continue;
    if (first !== undefined && minute - last > gapMinutes) {
      close();
      first = undefined;
    }
    first ??= minute;
    last = minute;
  }
  close();
  return gaps;
}

function gapOf(from: number, to: number, map: readonly number[], dayStartMs: number): RecorderGap {
  let gpsOnly = 0;
  for (let minute = from; minute < to; minute++) if (map[minute] === MINUTE_RECORD.gpsOnly) gpsOnly++;
  const kind: RecorderGapKind = gpsOnly === 0 ? "no-record" : gpsOnly === to - from ? "gps-only" : "mixed";
  return {
    fromMs: dayStartMs + from * MINUTE_MS,
    toMs: dayStartMs + to * MINUTE_MS,
    minutes: to - from,
    kind,
  };
}
