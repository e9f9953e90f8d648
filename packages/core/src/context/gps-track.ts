import type { GpsPoint } from "../devicecloud/schemas/devices.js";
import { isPlausible, type LatLng } from "./geodesy.js";
import { type SpeedUnit, toKmh } from "./speed-unit.js";

/** A point of a device's GPS history in the pipeline's units: epoch ms, km/h, degrees from north. */
export interface TrackPoint extends LatLng {
  timeMs: number;
  speedKmh: number;
  headingDeg: number;
}

/**
 * Points are about 5 s apart. Between two points at most this far apart the vehicle is taken to
 * move in a straight line at an even pace (at 100 km/h it covers 140 m in 5 s); across a longer gap
 * (a tunnel, a dropped connection) it may have done anything, so nothing is interpolated there.
 */
export const MAX_INTERPOLATION_GAP_MS = 60_000;
/** With a point on one side only, the nearest point stands for the event when it is this close. */
export const NEAREST_POINT_TOLERANCE_MS = 30_000;
/**
 * OverSpeed takes the highest speed within one sample interval of the event: a device raises it
 * when the speed crosses the limit, so the first sample at or after the crossing shows the speed
 * (the one before is below the limit). The window is half-open, [event - 5 s, event + 5 s): the
 * sample a whole interval after the event already shows the next acceleration.
 */
export const OVERSPEED_WINDOW_MS = 5_000;

/**
 * The points as a track: ascending time (the spec's sample is ascending; sorted anyway), one point
 * per instant, implausible coordinates (0/0, out of range) left out, speeds in km/h.
 */
export function trackOf(points: readonly GpsPoint[], unit: SpeedUnit): TrackPoint[] {
  const byTime = new Map<number, TrackPoint>();
  for (const point of points) {
    if (!isPlausible(point)) continue;
    const timeMs = point.time * 1000;
    byTime.set(timeMs, {
      timeMs,
      lat: point.lat,
      lng: point.lng,
      speedKmh: toKmh(point.speed, unit),
      headingDeg: point.dir,
    });
  }
  return [...byTime.values()].sort((a, b) => a.timeMs - b.timeMs);
}

export interface TrackPosition extends LatLng {
  /** Between the points either side, or the one point near enough. */
  method: "interpolated" | "nearest";
  /** The time of the point used; the event time when interpolated. */
  fixMs: number;
}

/** Where the track puts the vehicle at `atMs`, if it is close enough to tell. */
export function positionOnTrack(track: readonly TrackPoint[], atMs: number): TrackPosition | undefined {
  const index = firstAtOrAfter(track, atMs);
  const after = track[index];
  const before = track[index - 1];
  if (after && after.timeMs === atMs)
    return { lat: after.lat, lng: after.lng, method: "interpolated", fixMs: atMs };
  if (before && after && after.timeMs - before.timeMs <= MAX_INTERPOLATION_GAP_MS) {
    const share = (atMs - before.timeMs) / (after.timeMs - before.timeMs);
    return {
      lat: before.lat + (after.lat - before.lat) * share,
      lng: before.lng + (after.lng - before.lng) * share,
      method: "interpolated",
      fixMs: atMs,
    };
  }
  const near = nearestPoint(track, atMs);
  return near && { lat: near.lat, lng: near.lng, method: "nearest", fixMs: near.timeMs };
}

export interface TrackMotion {
  speedKmh: number;
  headingDeg: number;
}

/**
 * Speed and heading at `atMs`: for an OverSpeed the highest speed within a few seconds of it (the
 * sample that crossed the limit), otherwise the nearest point's; the heading is the nearest point's.
 */
export function motionOnTrack(
  track: readonly TrackPoint[],
  atMs: number,
  overSpeed: boolean,
): TrackMotion | undefined {
  const near = nearestPoint(track, atMs);
  if (!near) return undefined;
  if (!overSpeed) return { speedKmh: near.speedKmh, headingDeg: near.headingDeg };
  const around = track.slice(
    firstAtOrAfter(track, atMs - OVERSPEED_WINDOW_MS),
    firstAtOrAfter(track, atMs + OVERSPEED_WINDOW_MS),
  );
  const fastest = Math.max(near.speedKmh, ...around.map((point) => point.speedKmh));
  return { speedKmh: around.length > 0 ? fastest : near.speedKmh, headingDeg: near.headingDeg };
}

/** The point closest in time to `atMs`, within the tolerance. */
export function nearestPoint(track: readonly TrackPoint[], atMs: number): TrackPoint | undefined {
  const index = firstAtOrAfter(track, atMs);
  const candidates = [track[index - 1], track[index]].filter((point) => point !== undefined);
  const closest = candidates.sort((a, b) => Math.abs(a.timeMs - atMs) - Math.abs(b.timeMs - atMs))[0];
  return closest && Math.abs(closest.timeMs - atMs) <= NEAREST_POINT_TOLERANCE_MS ? closest : undefined;
}

/** Binary search: the index of the first point at or after `atMs` (the length when none is). */
function firstAtOrAfter(track: readonly TrackPoint[], atMs: number): number {
  let low = 0;
  let high = track.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((track[middle] as TrackPoint).timeMs < atMs) low = middle + 1;
    else high = middle;
  }
  return low;
}
