import type { TrackPoint } from "../context/gps-track.js";
import { MINUTE_RECORD } from "../devicecloud/schemas/records.js";
import type { MinuteRun } from "./driving.js";

/** One /api/gps call covers 30 minutes at most, as every caller's does (context/gps-lookup.ts). */
export const GPS_WINDOW_MINUTES = 30;
/**
 * A device's period costs this many /api/gps calls at most (8 hours of unrecorded time walked):
 * what bounds a run's overshoot of nothing, since a device is begun only with this many calls left.
 */
export const MAX_GPS_WINDOWS_PER_DEVICE = 16;

/** The track of minutes [from, to) of the day: empty when the device sent no point. Throws on failure. */
export type WindowTrack = (fromMinute: number, toMinute: number) => Promise<TrackPoint[]>;

export interface Walked {
  track: TrackPoint[];
  windows: number;
  /** Windows were left unwalked for MAX_GPS_WINDOWS_PER_DEVICE. */
  truncated: boolean;
}

const isRecorded = (value: number | undefined) =>
  value === MINUTE_RECORD.normal || value === MINUTE_RECORD.alert;

/**
 * Where a device is known to have been powered next to or inside an unrecorded run: the minutes
 * just past recorded ones, GPS-only minutes (the recorder ran, its cameras did not), and the last
 * time the device cloud heard from it. Walks start there, forward and back.
 */
export function anchorsOf(run: MinuteRun, map: readonly number[], heardMinute?: number) {
  const forward: number[] = [];
  const backward: number[] = [];
  if (isRecorded(map[run.start - 1])) forward.push(run.start);
  if (isRecorded(map[run.end])) backward.push(run.end);
  for (let minute = run.start; minute < run.end; minute++) {
    if (map[minute] === MINUTE_RECORD.gpsOnly && map[minute - 1] !== MINUTE_RECORD.gpsOnly) {
      forward.push(minute);
      backward.push(minute);
    }
  }
  if (heardMinute !== undefined && heardMinute >= run.start && heardMinute < run.end) {
    forward.push(heardMinute);
    backward.push(heardMinute);
  }
  return { forward, backward };
}

/**
 * Reads the GPS history over the unrecorded runs, only where the device may have been on: from
 * each anchor outward, 30 minutes a call, on while the last window had points or the next minute
 * is GPS only, and no further. A parked vehicle (powered off: no points, nothing recorded) costs
 * one empty window at each end of its stop; nothing at all inside a day it never moved.
 * Assumed: a vehicle that drives sends points (a recorder dead all day with its uplink dead too
 * leaves no trace to compare with, and is caught by its DiskError/VideoLoss events instead).
 */
export async function walkRuns(
  runs: readonly MinuteRun[],
  map: readonly number[],
  heardMinute: number | undefined,
  windowTrack: WindowTrack,
): Promise<Walked> {
  const walked: Walked = { track: [], windows: 0, truncated: false };
  const checked = new Set<number>();
  const fetch = async (from: number, to: number) => {
    if (walked.windows >= MAX_GPS_WINDOWS_PER_DEVICE) {
      walked.truncated = true;
      return false;
    }
    walked.windows++;
    for (let minute = from; minute < to; minute++) checked.add(minute);
    const track = await windowTrack(from, to);
    walked.track.push(...track);
    return track.length > 0;
  };
  for (const run of runs) {
    const { forward, backward } = anchorsOf(run, map, heardMinute);
    for (let at of forward) {
      while (at < run.end && !checked.has(at)) {
        let to = at + 1;
        while (to < Math.min(at + GPS_WINDOW_MINUTES, run.end) && !checked.has(to)) to++;
        const onward = (await fetch(at, to)) || map[to] === MINUTE_RECORD.gpsOnly;
        if (!onward || walked.truncated) break;
        at = to;
      }
    }
    for (let at of backward) {
      while (at > run.start && !checked.has(at - 1)) {
        let from = at - 1;
        while (from > Math.max(at - GPS_WINDOW_MINUTES, run.start) && !checked.has(from - 1)) from--;
        const onward = (await fetch(from, at)) || map[from - 1] === MINUTE_RECORD.gpsOnly;
        if (!onward || walked.truncated) break;
        at = from;
      }
    }
  }
  walked.track.sort((a, b) => a.timeMs - b.timeMs);
  return walked;
}
