/** The options of `start()`, their defaults, and their validation. */
import { RETENTION_DAYS_RANGE } from "./card-visibility.js";
import { EVENT_COORDINATES, type EventCoordinates } from "./coordinates.js";
import type { FaultRule } from "./faults.js";

export interface Account {
  username: string;
  /** Plain password; requests must carry its uppercase hex SHA-256. */
  password: string;
  admin: boolean;
}

export interface EventQueryHarshOptions {
  /** Cap on events per response; the OLDEST matching events are returned. Default: uncapped. */
  maxResults?: number;
  /** Order of the returned page. Default "asc" (ascending serialno). */
  order?: "asc" | "desc";
  /** Seeded fraction (0..1) of returned events that are repeated in the response. Default 0. */
  duplicateRate?: number;
  /**
   * Filters the service accepts and then does not apply, answering as if they were not sent (the
   * spec does not say how filters combine). Default none.
   */
  ignores?: IgnorableFilter[];
}

/** The event query filters a harsh service may ignore. */
export const IGNORABLE_FILTERS = ["columns", "beforeSerialno"] as const;
export type IgnorableFilter = (typeof IGNORABLE_FILTERS)[number];

/**
 * What the service calls a device and its vehicle and driver, replacing the seeded ones: whatever
 * a real service might send (markup, controls, emoji, ten thousand characters, an id of `..`), so
 * that a client can be tried against it. Any field left out keeps the seeded value.
 */
export interface DeviceIdentity {
  deviceid?: string;
  vehicleid?: string;
  drivername?: string;
}

export interface ClockOptions {
  /** Virtual time at which the service "now" starts. Default 2026-01-05T00:00:00Z. */
  start?: Date;
  /** Virtual ms per real ms; 0 = the clock only moves through `control.advance()`. Default 0. */
  speed?: number;
}

export interface SimulatorOptions {
  /** Port on 127.0.0.1; default 0 (ephemeral). */
  port?: number;
  /** Same seed => same fleet, same events, same playback bytes. Default 1. */
  seed?: number;
  /** Number of devices in the fleet. Default 20. */
  devices?: number;
  /** Default: demo/demo (normal) and admin/admin (admin). */
  accounts?: Account[];
  clock?: ClockOptions;
  /** Virtual hours of activity generated before the clock start. Default 24. */
  historyHours?: number;
  /** First serial number of the event log. Default 1_000_000n. */
  serialStart?: bigint;
  eventQuery?: EventQueryHarshOptions;
  /** Playback bitrate in bit/s; an array gives one per channel (channel 1 first). Default 512_000. */
  bitrateBitsPerSecond?: number | number[];
  /** The service's local time zone, east of UTC, for day and local-time filters. Default 0. */
  timeZoneOffsetMinutes?: number;
  faults?: FaultRule[];
  /**
   * How events write vehiclex/vehicley: "numbers" (default), "strings" (decimal strings such as
   * "13.404954"), or "null" (null on every event: a client must use the GPS history instead).
   */
  eventCoordinates?: EventCoordinates;
  /** The first devices' identities, in fleet order (see DeviceIdentity). Default none. */
  identities?: DeviceIdentity[];
  /**
   * Whole days each SD card holds (1..365): one number for every device, or one per device in
   * fleet order (an undefined entry, or a device past the end, keeps its seeded 3 to 14 days).
   */
  retentionDays?: number | readonly (number | undefined)[];
  /**
   * Whether a few random VideoLoss events leave the camera failed for 20 minutes to 4 hours.
   * Default true; `failCamera` works either way.
   */
  randomCameraFailures?: boolean;
}

export interface ResolvedHarshOptions {
  maxResults: number;
  order: "asc" | "desc";
  duplicateRate: number;
  ignores: ReadonlySet<IgnorableFilter>;
}

export interface ResolvedOptions {
  port: number;
  seed: number;
  devices: number;
  accounts: Account[];
  clockStartMs: number;
  clockSpeed: number;
  historyHours: number;
  serialStart: bigint;
  harsh: ResolvedHarshOptions;
  bitrates: number[];
  timeZoneOffsetMinutes: number;
  faults: FaultRule[];
  eventCoordinates: EventCoordinates;
  identities: DeviceIdentity[];
  /** Per device in fleet order; undefined: seeded. */
  retentionDays: (number | undefined)[];
  randomCameraFailures: boolean;
}

export const DEFAULT_ACCOUNTS: readonly Account[] = [
  { username: "demo", password: "demo", admin: false },
  { username: "admin", password: "admin", admin: true },
];
const DEFAULT_CLOCK_START = Date.UTC(2026, 0, 5);

export function resolveOptions(options: SimulatorOptions): ResolvedOptions {
  const accounts = (options.accounts ?? DEFAULT_ACCOUNTS).map((account) => ({ ...account }));
  if (accounts.length === 0) throw new Error("accounts: at least one account is needed");
  if (new Set(accounts.map((account) => account.username)).size !== accounts.length) {
    throw new Error("accounts: usernames must be unique");
  }
  const bitrates = [options.bitrateBitsPerSecond ?? 512_000].flat();
  if (bitrates.length === 0 || !bitrates.every((rate) => Number.isSafeInteger(rate) && rate >= 8)) {
    throw new Error("bitrateBitsPerSecond: positive integers of at least 8 bit/s");
  }
  const clockStartMs = options.clock?.start?.getTime() ?? DEFAULT_CLOCK_START;
  if (!Number.isFinite(clockStartMs)) throw new Error("clock.start: invalid date");
  const serialStart = options.serialStart ?? 1_000_000n;
  if (serialStart < 1n) throw new Error("serialStart: must be at least 1");
  return {
    port: checkInteger("port", options.port ?? 0, 0, 65_535),
    seed: checkInteger("seed", options.seed ?? 1, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    devices: checkInteger("devices", options.devices ?? 20, 1, 10_000),
    accounts,
    clockStartMs: Math.floor(clockStartMs),
    clockSpeed: checkNumber("clock.speed", options.clock?.speed ?? 0, 0, 1_000_000),
    historyHours: checkNumber("historyHours", options.historyHours ?? 24, 0, 24 * 366),
    serialStart,
    harsh: resolveHarsh(options.eventQuery ?? {}),
    bitrates,
    timeZoneOffsetMinutes: checkInteger(
      "timeZoneOffsetMinutes",
      options.timeZoneOffsetMinutes ?? 0,
      -840,
      840,
    ),
    faults: options.faults ?? [],
    // Not `??`: a null value is no mode (the mode "null" is a string), so it is rejected.
    eventCoordinates:
      options.eventCoordinates === undefined ? "numbers" : resolveEventCoordinates(options.eventCoordinates),
    identities: resolveIdentities(options.identities ?? [], options.devices ?? 20),
    retentionDays: resolveRetentionDays(options.retentionDays, options.devices ?? 20),
    randomCameraFailures: options.randomCameraFailures ?? true,
  };
}

function resolveRetentionDays(
  days: SimulatorOptions["retentionDays"],
  devices: number,
): (number | undefined)[] {
  const perDevice = typeof days === "number" ? Array<number>(devices).fill(days) : [...(days ?? [])];
  if (perDevice.length > devices)
    throw new Error(`retentionDays: ${perDevice.length} for ${devices} devices`);
  return perDevice.map((value) =>
    value === undefined ? undefined : checkRetentionDays("retentionDays", value),
  );
}

/** Also for control.setRetentionDays, whose callers may not be typed. */
export function checkRetentionDays(name: string, days: number): number {
  return checkInteger(name, days, RETENTION_DAYS_RANGE.min, RETENTION_DAYS_RANGE.max);
}

function resolveIdentities(identities: DeviceIdentity[], devices: number): DeviceIdentity[] {
  if (identities.length > devices) throw new Error(`identities: ${identities.length} for ${devices} devices`);
  const ids = identities.flatMap((identity) => (identity.deviceid === undefined ? [] : [identity.deviceid]));
  if (ids.some((id) => id === "")) throw new Error("identities: a device id must not be empty");
  if (new Set(ids).size !== ids.length) throw new Error("identities: device ids must be unique");
  return identities.map((identity) => ({ ...identity }));
}

/** Also for control.setEventCoordinates, whose callers may not be typed. */
export function resolveEventCoordinates(mode: unknown): EventCoordinates {
  if (EVENT_COORDINATES.includes(mode as EventCoordinates)) return mode as EventCoordinates;
  const choices = EVENT_COORDINATES.map((choice) => `"${choice}"`).join(", ");
  const got = typeof mode === "string" ? JSON.stringify(mode) : `${String(mode)} (not a string)`;
  throw new Error(`eventCoordinates: expected one of ${choices}, got ${got}`);
}

export function resolveHarsh(options: EventQueryHarshOptions): ResolvedHarshOptions {
  const order = options.order ?? "asc";
  if (order !== "asc" && order !== "desc") throw new Error('eventQuery.order: "asc" or "desc"');
  return {
    maxResults: checkInteger(
      "eventQuery.maxResults",
      options.maxResults ?? Number.MAX_SAFE_INTEGER,
      1,
      Infinity,
    ),
    order,
    duplicateRate: checkNumber("eventQuery.duplicateRate", options.duplicateRate ?? 0, 0, 1),
    ignores: new Set(
      (options.ignores ?? []).map((filter) => {
        if (!IGNORABLE_FILTERS.includes(filter))
          throw new Error(`eventQuery.ignores: names from ${IGNORABLE_FILTERS.join(", ")}`);
        return filter;
      }),
    ),
  };
}

function checkNumber(name: string, value: number, min: number, max: number): number {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new Error(`${name}: expected a number from ${min} to ${max}, got ${value}`);
  }
  return value;
}

function checkInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name}: expected an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}
