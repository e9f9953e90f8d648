import { pathMeters } from "../context/geodesy.js";
import type { TrackPoint } from "../context/gps-track.js";
import { placeAtEvent } from "../context/incident-context.js";
import { roundTo } from "../rounding.js";
import type { SpeedSummary } from "./manifest.js";

/** The vehicle at the event, as the evidence records it. */
export interface EventFix {
  timeMs: number;
  /** Absent when neither the event nor the track tells. */
  position?: {
    lat: number;
    lng: number;
    /** The event's own coordinates come first; the track at the event time otherwise. */
    source: "event" | "track";
    /** When the vehicle was there: the event time, or the nearest point's time when none lies either side. */
    fixMs: number;
  };
  speedKmh?: number;
  headingDeg?: number;
}

/**
 * Where the vehicle was and how it moved at the event (pure). Speed and heading always come from
 * the track: for an OverSpeed the highest speed within a few seconds (the sample that crossed the
 * limit), otherwise the nearest point's.
 */
export function eventFix(
  event: Record<string, unknown>,
  track: readonly TrackPoint[],
  eventMs: number,
): EventFix {
  const { position, motion } = placeAtEvent(event, track, eventMs);
  const fix: EventFix = { timeMs: eventMs };
  if (position)
    fix.position = { lat: position.lat, lng: position.lng, source: position.source, fixMs: position.fixMs };
  if (motion) Object.assign(fix, { speedKmh: motion.speedKmh, headingDeg: motion.headingDeg });
  return fix;
}

export const NO_SPEED_SUMMARY: SpeedSummary = { atEventKmh: null, maxKmh: null, distanceMeters: null };

/** Speed at the event, the highest over the window, and the path length (to 0.01 km/h and 0.1 m). */
export function speedSummary(track: readonly TrackPoint[], fix: EventFix): SpeedSummary {
  if (track.length === 0) return NO_SPEED_SUMMARY;
  return {
    atEventKmh: fix.speedKmh === undefined ? null : roundTo(fix.speedKmh, 2),
    maxKmh: roundTo(
      track.reduce((max, point) => Math.max(max, point.speedKmh), 0),
      2,
    ),
    distanceMeters: roundTo(pathMeters(track), 1),
  };
}
