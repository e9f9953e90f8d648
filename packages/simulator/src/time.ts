/** Time units and the strict parsers for the time formats the spec names. */
export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const MINUTES_PER_DAY = 1440;

/** ISO 8601 UTC with milliseconds, the format of every `updatetime` and `eventtime`. */
export function isoMillis(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const FILTER_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z?)$/;
const PLAYBACK_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2})(\d{2})$/;

/** `YYYY-MM-DD` as a day number (days since 1970-01-01), or undefined when not a real date. */
export function parseDay(text: string): number | undefined {
  const match = DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const epochMs = civilToEpochMs(match.slice(1, 4).map(Number), [0, 0, 0]);
  return epochMs === undefined ? undefined : epochMs / DAY_MS;
}

/**
 * Event query time filters: `YYYY-MM-DDTHH:mm:ss` is service-local time, a trailing `Z` makes it
 * UTC. Returns epoch seconds, or undefined when the text is not a real time in that format.
 */
export function parseFilterTime(text: string, localOffsetMinutes: number): number | undefined {
  const match = FILTER_TIME_PATTERN.exec(text);
  if (!match) return undefined;
  const fields = match.slice(1, 7).map(Number);
  const epochMs = civilToEpochMs(fields.slice(0, 3), fields.slice(3, 6));
  if (epochMs === undefined) return undefined;
  const offsetMs = match[7] === "Z" ? 0 : localOffsetMinutes * MINUTE_MS;
  return (epochMs - offsetMs) / SECOND_MS;
}

/** Playback start `YYYY-MM-DDTHH:mm:ss+hhmm` (or `-hhmm`) as epoch milliseconds and the offset it was written at. */
export function parsePlaybackTimestamp(
  text: string,
): { epochMs: number; utcOffsetMinutes: number } | undefined {
  const match = PLAYBACK_TIME_PATTERN.exec(text);
  if (!match) return undefined;
  const fields = match.slice(1, 7).map(Number);
  const wallClockMs = civilToEpochMs(fields.slice(0, 3), fields.slice(3, 6));
  const offsetHours = Number(match[8]);
  const offsetMinutes = Number(match[9]);
  if (wallClockMs === undefined || offsetHours > 14 || offsetMinutes > 59) return undefined;
  const utcOffsetMinutes = (match[7] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  return { epochMs: wallClockMs - utcOffsetMinutes * MINUTE_MS, utcOffsetMinutes };
}

/** Epoch ms of a UTC civil time, or undefined when a field is out of range (Feb 30, 24:00, ...). */
function civilToEpochMs(date: readonly number[], time: readonly number[]): number | undefined {
  const [year = 0, month = 0, day = 0] = date;
  const [hour = 0, minute = 0, second = 0] = time;
  const epochMs = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(epochMs);
  const roundTrips =
    check.getUTCFullYear() === year &&
    check.getUTCMonth() === month - 1 &&
    check.getUTCDate() === day &&
    check.getUTCHours() === hour &&
    check.getUTCMinutes() === minute &&
    check.getUTCSeconds() === second;
  return roundTrips ? epochMs : undefined;
}
