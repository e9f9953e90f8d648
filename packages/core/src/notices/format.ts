import { wallClock } from "../routing/local-time.js";
import { deviceShown, displayName } from "../text/display.js";

/** "2026-03-29 03:12": an instant on the wall clock of `zone`. */
export function localDateTime(zone: string, epochMs: number): string {
  const { date, time } = wallClock(zone, epochMs);
  return `${date} ${time}`;
}

/** "7 hours": a span of whole or fractional hours, as a DST night makes them. */
export function hoursText(spanMs: number): string {
  const hours = Math.round((spanMs / 3_600_000) * 100) / 100;
  return `${hours} hour${hours === 1 ? "" : "s"}`;
}

/** "3 alerts", "1 alert". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/**
 * One alert as a line of a summary: local time, rule, severity and vehicle (or device), the device
 * cloud's texts on one line (a line break in a vehicle id would forge lines of the email).
 */
export function alertLine(
  zone: string,
  alert: {
    eventtime: string;
    ruleId: string;
    severity: string;
    deviceid: string;
    vehicleid?: string | undefined;
  },
): string {
  const eventMs = Date.parse(alert.eventtime);
  const when = Number.isNaN(eventMs) ? alert.eventtime : localDateTime(zone, eventMs);
  const name = displayName(alert.vehicleid);
  const device = deviceShown(alert.deviceid);
  const vehicle = name ? `vehicle ${name} (device ${device})` : `device ${device}`;
  return `${when}  ${alert.ruleId} (${alert.severity})  ${vehicle}`;
}
