/**
 * Event query filters (endpoint 10). All given filters must hold (AND). Choices where the spec is
 * silent:
 * - Times are compared at whole-second resolution, because the filter formats carry no
 *   fraction: an event at 12:00:00.750 counts as 12:00:00.
 * - date/afterDate/beforeDate and afterTime/beforeTime (without `Z`) use the service's local
 *   time zone (`timeZoneOffsetMinutes`) and apply to `eventtime`.
 * - afterUpdatetime/beforeUpdatetime are EXCLUSIVE ("updated after"/"updated before").
 * - hasLoopdata: true = loopdata is a non-empty string; false = loopdata is null or "".
 * - columns: a non-empty array of allowed names; the response keeps the canonical column order.
 */

import type { EventLog, LoggedEvent } from "./eventlog.js";
import { EVENT_COLUMNS, type EventColumn } from "./events.js";
import type { JsonObject } from "./json.js";
import type { IgnorableFilter } from "./options.js";
import {
  invalid,
  optionalBoolean,
  optionalInteger,
  optionalSerialNumber,
  optionalString,
  optionalStringArray,
} from "./params.js";
import { DAY_MS, MINUTE_MS, parseDay, parseFilterTime, SECOND_MS } from "./time.js";

export const EVENT_QUERY_FIELDS = [
  "serialno",
  "afterSerialno",
  "beforeSerialno",
  "appdevid",
  "type",
  "date",
  "afterDate",
  "beforeDate",
  "afterTime",
  "beforeTime",
  "afterUpdatetime",
  "beforeUpdatetime",
  "deviceid",
  "hasLoopdata",
  "downloadtype",
  "columns",
] as const;

export interface EventQuery {
  afterSerialno: bigint | undefined;
  beforeSerialno: bigint | undefined;
  /** Undefined = all columns. */
  columns: ReadonlySet<EventColumn> | undefined;
  matches(entry: LoggedEvent): boolean;
}

/** The query of `body`; filters in `ignores` are checked but not applied, as a harsh service may do. */
export function parseEventQuery(
  body: JsonObject,
  timeZoneOffsetMinutes: number,
  ignores: ReadonlySet<IgnorableFilter> = new Set(),
): EventQuery {
  const offsetMs = timeZoneOffsetMinutes * MINUTE_MS;
  const tests: ((entry: LoggedEvent) => boolean)[] = [];

  const serialno = optionalString(body, "serialno");
  if (serialno !== undefined) {
    if (!/^\d+$/.test(serialno)) throw invalid("serialno", "a string of decimal digits");
    tests.push((entry) => entry.event.serialno.toString() === serialno);
  }
  const afterSerialno = optionalSerialNumber(body, "afterSerialno");
  const askedBeforeSerialno = optionalSerialNumber(body, "beforeSerialno");
  const beforeSerialno = ignores.has("beforeSerialno") ? undefined : askedBeforeSerialno;
  if (afterSerialno !== undefined) tests.push((entry) => entry.event.serialno > afterSerialno);
  if (beforeSerialno !== undefined) tests.push((entry) => entry.event.serialno <= beforeSerialno);

  const appdevid = optionalInteger(body, "appdevid");
  if (appdevid !== undefined) tests.push((entry) => entry.event.appdevid === appdevid);
  const type = optionalInteger(body, "type");
  if (type !== undefined) tests.push((entry) => entry.event.type === type);
  const deviceid = optionalString(body, "deviceid");
  if (deviceid !== undefined) tests.push((entry) => entry.event.deviceid === deviceid);

  const localDay = (entry: LoggedEvent) => Math.floor((entry.eventMs + offsetMs) / DAY_MS);
  const day = (name: string) => {
    const text = optionalString(body, name);
    if (text === undefined) return undefined;
    const parsed = parseDay(text);
    if (parsed === undefined) throw invalid(name, "a date YYYY-MM-DD");
    return parsed;
  };
  const date = day("date");
  const afterDate = day("afterDate");
  const beforeDate = day("beforeDate");
  if (date !== undefined) tests.push((entry) => localDay(entry) === date);
  if (afterDate !== undefined) tests.push((entry) => localDay(entry) >= afterDate);
  if (beforeDate !== undefined) tests.push((entry) => localDay(entry) <= beforeDate);

  const seconds = (ms: number) => Math.floor(ms / SECOND_MS);
  const time = (name: string) => {
    const text = optionalString(body, name);
    if (text === undefined) return undefined;
    const parsed = parseFilterTime(text, timeZoneOffsetMinutes);
    if (parsed === undefined) throw invalid(name, "a time YYYY-MM-DDTHH:mm:ss, optionally followed by Z");
    return parsed;
  };
  const afterTime = time("afterTime");
  const beforeTime = time("beforeTime");
  const afterUpdatetime = time("afterUpdatetime");
  const beforeUpdatetime = time("beforeUpdatetime");
  if (afterTime !== undefined) tests.push((entry) => seconds(entry.eventMs) >= afterTime);
  if (beforeTime !== undefined) tests.push((entry) => seconds(entry.eventMs) <= beforeTime);
  if (afterUpdatetime !== undefined) tests.push((entry) => seconds(entry.updateMs) > afterUpdatetime);
  if (beforeUpdatetime !== undefined) tests.push((entry) => seconds(entry.updateMs) < beforeUpdatetime);

  const hasLoopdata = optionalBoolean(body, "hasLoopdata");
  if (hasLoopdata !== undefined) tests.push((entry) => Boolean(entry.event.loopdata) === hasLoopdata);
  const downloadtype = optionalInteger(body, "downloadtype");
  if (downloadtype !== undefined) {
    if (downloadtype < 0 || downloadtype > 2) throw invalid("downloadtype", "0, 1 or 2");
    tests.push((entry) => entry.event.downloadtype === downloadtype);
  }

  const columns = parseColumns(optionalStringArray(body, "columns"));
  return {
    afterSerialno,
    beforeSerialno,
    columns: ignores.has("columns") ? undefined : columns,
    matches: (entry) => tests.every((test) => test(entry)),
  };
}

/** Matching events in ascending serialno, at most `limit` of them (the oldest). */
export function selectEvents(log: EventLog, query: EventQuery, limit: number): LoggedEvent[] {
  const entries = log.all();
  const selected: LoggedEvent[] = [];
  const start = query.afterSerialno === undefined ? 0 : log.indexAfter(query.afterSerialno);
  for (let i = start; i < entries.length && selected.length < limit; i++) {
    const entry = entries[i] as LoggedEvent;
    // The log is in ascending serialno: nothing past beforeSerialno can match.
    if (query.beforeSerialno !== undefined && entry.event.serialno > query.beforeSerialno) break;
    if (query.matches(entry)) selected.push(entry);
  }
  return selected;
}

function parseColumns(names: string[] | undefined): ReadonlySet<EventColumn> | undefined {
  if (names === undefined) return undefined;
  if (names.length === 0) throw invalid("columns", "a non-empty array of column names");
  const unknown = names.filter((name) => !(EVENT_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw invalid("columns", `names from: ${EVENT_COLUMNS.join(", ")} (unknown: ${unknown.join(", ")})`);
  }
  return new Set(names as EventColumn[]);
}
