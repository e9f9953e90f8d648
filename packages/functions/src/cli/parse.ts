import { eventCodeFromName } from "@fleet-alerts/core/devicecloud";
import { parseDurationSeconds } from "@fleet-alerts/core/rules";
import { type AlertRef, InvalidAlertIdError, parseAlertId } from "@fleet-alerts/core/share";
import { InvalidArgumentError } from "commander";

/*
 * Parsers for command-line values, in commander's argParser form: each throws an
 * InvalidArgumentError, which commander reports with the option's name and exit code 1.
 */

/** A problem the operator can fix (a refused request, a missing setting): printed alone, exit code 1. */
export class CliError extends Error {
  override readonly name = "CliError";
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** What the operator wrote: an instant, and whether it was a date alone (so a whole day is meant). */
export interface Instant {
  ms: number;
  dateOnly: boolean;
}

/**
 * `YYYY-MM-DD`, `YYYY-MM-DDTHH:mm[:ss[.sss]]`, optionally with `Z` or an offset (`+05:30`, `+0530`).
 * Without an offset the time is UTC: the service's log is in UTC, and a default that depended on
 * the machine's time zone would make the same command mean different periods on different hosts.
 * Calendar-invalid values are refused (Date.parse would roll 02-30 over to March).
 */
export function parseInstant(text: string): Instant {
  const match = INSTANT.exec(text.trim());
  if (!match) throw new InvalidArgumentError("expected an ISO date or time such as 2026-01-05T08:30:00Z");
  const [, year, month, day, hours = "00", minutes = "00", seconds = "00", fraction = "", zone = "Z"] = match;
  const wallClock = `${year}-${month}-${day}T${hours}:${minutes}:${seconds}`;
  const utcMs = Date.parse(`${wallClock}.${fraction.padEnd(3, "0")}Z`);
  // A rolled-over value no longer reads as what was written.
  if (Number.isNaN(utcMs) || new Date(utcMs).toISOString().slice(0, 19) !== wallClock)
    throw new InvalidArgumentError("not a valid calendar date and time");
  return { ms: utcMs - offsetMinutes(zone) * 60_000, dateOnly: match[4] === undefined };
}

function offsetMinutes(zone: string): number {
  if (zone === "Z") return 0;
  const digits = zone.replace(":", "");
  const sign = digits.startsWith("-") ? -1 : 1;
  const hours = Number(digits.slice(1, 3));
  const minutes = Number(digits.slice(3, 5));
  if (hours > 14 || minutes >= 60) throw new InvalidArgumentError(`not a valid UTC offset: ${zone}`);
  return sign * (hours * 60 + minutes);
}

/** A whole number of at least `min`. */
export function integerAtLeast(min: number): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min)
      throw new InvalidArgumentError(`expected a whole number of at least ${min}`);
    return value;
  };
}

/** A whole number from `min` to `max`. */
export function integerBetween(min: number, max: number): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max)
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return value;
  };
}

/** A number of seconds, fractions allowed, of at least `min`. */
export function secondsAtLeast(min: number): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text.trim()) || value < min)
      throw new InvalidArgumentError(`expected a number of seconds of at least ${min}`);
    return value;
  };
}

/** An event serial number: digits, exact at any size. */
export function parseSerial(text: string): bigint {
  if (!/^\d+$/.test(text.trim())) throw new InvalidArgumentError("expected a serial number (digits only)");
  return BigInt(text.trim());
}

/** `13,16` or `OverSpeed,GSensor`: event codes by number or by the spec's name. */
export function parseEventCodes(text: string): number[] {
  return text.split(",").map((part) => {
    const item = part.trim();
    if (/^\d+$/.test(item)) return Number(item);
    const code = eventCodeFromName(item);
    if (code === undefined) throw new InvalidArgumentError(`unknown event code or name "${item}"`);
    return code;
  });
}

/** `90m`, `72h`, `30d`, `1d12h`: a duration of at least a minute, in milliseconds. */
export function parseDurationMs(text: string): number {
  const seconds = parseDurationSeconds(text.trim());
  if (seconds === undefined || seconds < 60)
    throw new InvalidArgumentError("expected a duration of a minute or more, such as 90m, 72h or 30d");
  return seconds * 1000;
}

/** An alert id, `<account>:<serialno>:<ruleId>`, as its parts. */
export function parseAlertIdArgument(text: string): AlertRef {
  try {
    return parseAlertId(text.trim());
  } catch (error) {
    if (error instanceof InvalidAlertIdError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

/** `1,2`: camera channels, counted from 1 (the range and repeats are the request's schema's to refuse). */
export function parseChannels(text: string): number[] {
  const parts = text.split(",").map((part) => part.trim());
  if (!parts.every((part) => /^\d+$/.test(part)))
    throw new InvalidArgumentError("expected channel numbers separated by commas, such as 1,2");
  return parts.map(Number);
}
