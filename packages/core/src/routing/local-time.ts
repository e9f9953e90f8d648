/**
 * Wall-clock times in an IANA zone, DST-correct: the instant a local date and time stand for, and
 * the local date of an instant. Quiet hours and digests are set in local time, so on the nights the
 * clocks change a window is an hour shorter or longer, as the people keeping it live it.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** `{ date: "2026-03-29", time: "03:30" }`: the wall clock in `timeZone` at `epochMs`. */
export function wallClock(timeZone: string, epochMs: number): { date: string; time: string } {
  const parts = new Map(
    partsFormat(timeZone)
      .formatToParts(epochMs)
      .map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.get("year")}-${parts.get("month")}-${parts.get("day")}`,
    time: `${parts.get("hour")}:${parts.get("minute")}`,
  };
}

/** "2026-03-29" plus `days` (may be negative). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The instant of local `date` `time` ("HH:MM") in `timeZone`. A time the clocks skip (02:30 on a
 * spring-forward night) is read with the offset before the change, which lands just after the gap
 * (03:30); a time that happens twice (02:30 on a fall-back night) is its first occurrence.
 */
export function instantOf(timeZone: string, date: string, time: string): number {
  const asUtc = Date.parse(`${date}T${time}:00Z`);
  // The zone's offsets a day either side cover any single change near this date.
  const offsets = [
    ...new Set([offsetMs(timeZone, asUtc - 86_400_000), offsetMs(timeZone, asUtc + 86_400_000)]),
  ];
  const candidates = offsets
    .map((offset) => asUtc - offset)
    .filter((instant) => {
      const clock = wallClock(timeZone, instant);
      return clock.date === date && clock.time === time;
    });
  if (candidates.length > 0) return Math.min(...candidates);
  // Skipped: the offset before the change (the smaller one on a spring-forward night).
  return asUtc - Math.min(...offsets);
}

/** The zone's offset from UTC at `epochMs`, in ms (east positive). */
function offsetMs(timeZone: string, epochMs: number): number {
  const { date, time } = wallClock(timeZone, epochMs);
  const wallAsUtc = Date.parse(`${date}T${time}:00Z`);
  return wallAsUtc - Math.floor(epochMs / 60_000) * 60_000;
}
