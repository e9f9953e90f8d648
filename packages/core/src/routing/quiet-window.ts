import type { QuietHours } from "./groups-schema.js";
import { addDays, instantOf, wallClock } from "./local-time.js";

/** One occurrence of a group's quiet hours, as instants. */
export interface QuietWindow {
  startMs: number;
  endMs: number;
}

/**
 * The occurrence of `quiet` (in `timeZone`) that `atMs` falls in, or undefined outside quiet
 * hours. A window from 22:00 to 06:00 starts on one local date and ends on the next; its length
 * follows the wall clock, so across a DST change it lasts 7 or 9 hours.
 */
export function quietWindowAt(quiet: QuietHours, timeZone: string, atMs: number): QuietWindow | undefined {
  const today = wallClock(timeZone, atMs).date;
  const spansMidnight = quiet.from > quiet.to;
  // The window that started yesterday may still be running (22:00-06:00 at 03:00).
  for (const startDate of [addDays(today, -1), today]) {
    const window = windowStartingOn(quiet, timeZone, startDate, spansMidnight);
    if (window.startMs <= atMs && atMs < window.endMs) return window;
  }
  return undefined;
}

/** The occurrence of `quiet` that starts on local `date`. */
export function windowStartingOn(
  quiet: QuietHours,
  timeZone: string,
  date: string,
  spansMidnight = quiet.from > quiet.to,
): QuietWindow {
  return {
    startMs: instantOf(timeZone, date, quiet.from),
    endMs: instantOf(timeZone, spansMidnight ? addDays(date, 1) : date, quiet.to),
  };
}
