import { fleetClock, utcTime } from "../../text/fleet-clock.js";
import { escapeHtml } from "./markup.js";

/** An instant in UTC and in the fleet's zone, with the offset in force then (it differs across a DST change). */
export function instantInBothZones(epochMs: number, timeZone: string): { utc: string; fleet: string } {
  return { utc: utcTime(epochMs), fleet: fleetClock(timeZone).long(epochMs) };
}

/** A span in UTC and in the fleet's zone; the end's date is left out when it is the start's. */
export function rangeInBothZones(
  startMs: number,
  endMs: number,
  timeZone: string,
): { utc: string; fleet: string } {
  const clock = fleetClock(timeZone);
  return {
    utc: range(utcTime(startMs), utcTime(endMs)),
    fleet: range(clock.dateTime(startMs), clock.dateTime(endMs)),
  };
}

// Both clocks write "YYYY-MM-DD HH:MM:SS <zone>".
function range(start: string, end: string): string {
  const date = start.slice(0, start.indexOf(" ") + 1);
  return `${start} – ${end.startsWith(date) ? end.slice(date.length) : end}`;
}

/** A recorded ISO 8601 instant as recorded: the custody record's own words, to the millisecond. */
export function recordedInstant(iso: string): string {
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso)}</time>`;
}
