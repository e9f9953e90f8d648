import { isTimeZone } from "../config/time-zone.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Instants as the fleet's people read them: in the fleet's time zone, with the offset in force then. */
export interface FleetClock {
  /** `2026-03-29 03:30:00 Europe/Berlin (UTC+02:00)` */
  long(epochMs: number): string;
  /** `2026-03-29 03:30:00 UTC+2`: the offset, since it may differ from the event's across a DST change */
  dateTime(epochMs: number): string;
  /** `29 Mar 03:30 UTC+2` */
  short(epochMs: number): string;
}

// One per zone: building a DateTimeFormat costs more than rendering a whole alert with it.
const fleetClocks = new Map<string, FleetClock>();

/** The clock of an IANA time zone; throws a RangeError naming the zone when it is not one. */
export function fleetClock(timeZone: string): FleetClock {
  let clock = fleetClocks.get(timeZone);
  if (!clock) {
    clock = newFleetClock(timeZone);
    fleetClocks.set(timeZone, clock);
  }
  return clock;
}

function newFleetClock(timeZone: string): FleetClock {
  if (!isTimeZone(timeZone)) {
    throw new RangeError(`fleet time zone "${timeZone}" is not an IANA time zone (such as "Europe/Berlin")`);
  }
  // Parts rather than a locale's layout: the same text whatever the runtime's locale data.
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZoneName: "longOffset",
  });
  // An alert renders its event's instant several times over (email, SMS, JSON): keep the last one.
  let last: { epochMs: number; clock: ReturnType<typeof readWallClock> } | undefined;
  const wallClock = (epochMs: number) => {
    if (last?.epochMs !== epochMs) last = { epochMs, clock: readWallClock(epochMs) };
    return last.clock;
  };
  const readWallClock = (epochMs: number) => {
    const parts = new Map(format.formatToParts(epochMs).map((part) => [part.type, part.value]));
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.get(type) ?? "";
    // "GMT+05:30"; plain "GMT" at offset zero in some ICU versions.
    const offset = part("timeZoneName").replace(/^GMT/, "") || "+00:00";
    return {
      date: `${part("year")}-${part("month")}-${part("day")}`,
      time: `${part("hour")}:${part("minute")}:${part("second")}`,
      monthDay: `${Number(part("day"))} ${MONTHS[Number(part("month")) - 1]}`,
      offset,
    };
  };
  return {
    long(epochMs) {
      const clock = wallClock(epochMs);
      return `${clock.date} ${clock.time} ${timeZone} (UTC${clock.offset})`;
    },
    dateTime(epochMs) {
      const clock = wallClock(epochMs);
      return `${clock.date} ${clock.time} ${shortOffset(clock.offset)}`;
    },
    short(epochMs) {
      const clock = wallClock(epochMs);
      return `${clock.monthDay} ${clock.time.slice(0, 5)} ${shortOffset(clock.offset)}`;
    },
  };
}

/** "+02:00" -> "UTC+2", "+05:30" -> "UTC+5:30", "+00:00" -> "UTC". */
export function shortOffset(offset: string): string {
  const match = /^([+-])(\d\d):(\d\d)$/.exec(offset);
  if (match === null) return `UTC${offset}`;
  const [, sign, hours, minutes] = match;
  if (hours === "00" && minutes === "00") return "UTC";
  return `UTC${sign}${Number(hours)}${minutes === "00" ? "" : `:${minutes}`}`;
}

/** `2026-03-29 01:30:00 UTC` */
export function utcTime(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
