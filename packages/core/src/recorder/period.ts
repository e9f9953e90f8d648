/**
 * The audit's periods, pure. The device cloud keeps one record map per day of 1,440 minutes from
 * the day's start (its local midnight: FLEET_UTC_OFFSET, as the evidence function reads them), and
 * a period is `everyHours` of such a day, so that one map covers it.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
/**
 * A period is audited once it ended this long ago: points and record minutes of its last stretch
 * reach the device cloud a little after they happen (a device uploads in batches).
 */
export const AUDIT_SETTLE_MS = 30 * MINUTE_MS;

export interface AuditPeriod {
  startMs: number;
  endMs: number;
  /** The start of the device cloud's day that holds it: the record map's `date`. */
  dayStartMs: number;
  /** The period's minutes within that day's map: [fromMinute, toMinute). */
  fromMinute: number;
  toMinute: number;
}

/** The start of the device cloud's day holding `ms`, days beginning at local midnight of the offset. */
export function dayStartOf(ms: number, utcOffsetMinutes: number): number {
  const offsetMs = utcOffsetMinutes * MINUTE_MS;
  return Math.floor((ms + offsetMs) / DAY_MS) * DAY_MS - offsetMs;
}

/** The period that starts at `startMs` (a value `duePeriod` or `nextPeriod` gave). */
export function periodAt(startMs: number, everyHours: number, utcOffsetMinutes: number): AuditPeriod {
  const dayStartMs = dayStartOf(startMs, utcOffsetMinutes);
  const fromMinute = (startMs - dayStartMs) / MINUTE_MS;
  return {
    startMs,
    endMs: startMs + everyHours * 3_600_000,
    dayStartMs,
    fromMinute,
    toMinute: fromMinute + everyHours * 60,
  };
}

/** The latest period that ended at least AUDIT_SETTLE_MS before `nowMs`. */
export function duePeriod(nowMs: number, everyHours: number, utcOffsetMinutes: number): AuditPeriod {
  const settledMs = nowMs - AUDIT_SETTLE_MS;
  const periodMs = everyHours * 3_600_000;
  const dayStartMs = dayStartOf(settledMs, utcOffsetMinutes);
  const containing = dayStartMs + Math.floor((settledMs - dayStartMs) / periodMs) * periodMs;
  return periodAt(containing - periodMs, everyHours, utcOffsetMinutes);
}

export function nextPeriod(period: AuditPeriod, everyHours: number, utcOffsetMinutes: number): AuditPeriod {
  return periodAt(period.endMs, everyHours, utcOffsetMinutes);
}
