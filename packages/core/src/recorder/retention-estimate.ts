/**
 * How many days a device's card holds: the oldest day whose record map still shows video, counted
 * back from the audited day, found with few calls: a geometric probe back (1, 2, 4, ... days) to
 * the first empty probe, then a binary search between the last full and the first empty one. A
 * card overwrites its oldest minutes first, so past the oldest recorded day every day is empty.
 *
 * Assumed: a vehicle does not stand still more than PARKED_DAYS_TOLERATED days in a row (a
 * weekend): a probe looks at that many days more before it calls a day empty. A longer standstill
 * on a probed day makes the estimate short (a lower bound); it is refreshed weekly.
 */

/** Estimates stop here: a card holding more is reported as "at least" this many days. */
export const RETENTION_PROBE_MAX_DAYS = 90;
export const PARKED_DAYS_TOLERATED = 2;
const PROBE_DAYS = [1, 2, 4, 8, 16, 32, 64, RETENTION_PROBE_MAX_DAYS];
/** The widest step of PROBE_DAYS is 32 days: a binary search of it takes 5 probes. */
const SEARCH_PROBES = 5;
/** Record maps one estimate reads at most: what the audit keeps in its budget before it begins one. */
export const MAX_RETENTION_CALLS = (1 + PROBE_DAYS.length + SEARCH_PROBES) * (1 + PARKED_DAYS_TOLERATED);

/** Whether the record map of the day `daysBack` days before the audited day shows any video. */
export type DayRecorded = (daysBack: number) => Promise<boolean>;

export interface RetentionEstimate {
  days: number;
  /** The card held video as far back as the probe looks: it holds at least `days`. */
  atLeast: boolean;
}

/** Undefined when the device recorded nothing in the last days: there is nothing to count back from. */
export async function estimateRetention(recorded: DayRecorded): Promise<RetentionEstimate | undefined> {
  // The first recorded day among daysBack .. daysBack + PARKED_DAYS_TOLERATED.
  const probe = async (daysBack: number): Promise<number | undefined> => {
    for (let day = daysBack; day <= daysBack + PARKED_DAYS_TOLERATED; day++)
      if (await recorded(day)) return day;
    return undefined;
  };
  let oldest = await probe(0);
  if (oldest === undefined) return undefined;
  let empty: number | undefined;
  for (const daysBack of PROBE_DAYS) {
    if (daysBack <= oldest) continue;
    const found = await probe(daysBack);
    if (found === undefined) {
      empty = daysBack;
      break;
    }
    oldest = found;
  }
  if (empty === undefined) return { days: RETENTION_PROBE_MAX_DAYS, atLeast: true };
  while (empty - oldest > 1) {
    const middle = Math.floor((oldest + empty) / 2);
    // A find lies before `empty`: the probe of `empty` saw nothing in its days.
    const found = await probe(middle);
    if (found === undefined) empty = middle;
    else oldest = found;
  }
  // Days oldest .. 0 are on the card.
  return { days: oldest + 1, atLeast: false };
}
