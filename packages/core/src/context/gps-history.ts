import type { TrackPoint } from "./gps-track.js";

/** Why a device's GPS history could not help with an alert. */
export const GPS_HISTORY_GAPS = [
  /** The account's lookup budget is 0: /api/gps is never called. */
  "disabled",
  /** The chunk's time budget ran out before this device's turn. */
  "over-budget",
  "timeout",
  /** An HTTP error status, or no answer at all (connection refused, reset). */
  "failed",
  /** The answer did not match the spec (not an array, a point without a time...). */
  "malformed",
  /** No point in the range asked. */
  "empty",
] as const;
export type GpsHistoryGap = (typeof GPS_HISTORY_GAPS)[number];

/** A device's GPS history around its alerts' events, or why there is none. */
export type GpsHistory =
  | { status: "ok"; track: TrackPoint[] }
  | { status: "unavailable"; reason: GpsHistoryGap };

/** Each gap in words, for the people reading an alert. */
export const GPS_HISTORY_GAP_TEXT: Record<GpsHistoryGap, string> = {
  disabled: "GPS history lookups are off",
  "over-budget": "the GPS history lookup ran out of time",
  timeout: "the GPS history did not answer in time",
  failed: "the GPS history request failed",
  malformed: "the GPS history answer was malformed",
  empty: "the GPS history had no points",
};
