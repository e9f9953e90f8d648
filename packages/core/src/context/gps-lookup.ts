import { DeviceCloudInvalidResponseError, DeviceCloudTimeoutError } from "../devicecloud/errors.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { GpsHistoryRequest } from "../devicecloud/schemas/devices.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import type { GpsHistory, GpsHistoryGap } from "./gps-history.js";
import { NEAREST_POINT_TOLERANCE_MS, type TrackPoint, trackOf } from "./gps-track.js";
import type { SpeedUnit } from "./speed-unit.js";

export interface GpsLookupSettings {
  speedUnit: SpeedUnit;
  /** The most a chunk's lookups may take, all devices together; 0 = never call /api/gps. */
  budgetMs: number;
}

/** Calls made at once: a chunk can name 100 devices, and the service is not ours to flood. */
const CONCURRENT_LOOKUPS = 8;

/**
 * A device's events share one call when the time between their windows is at most this: a call
 * costs about as much CPU as parsing a few minutes of points (5 s apart). In `npm run bench`'s
 * backlog (chunks of 500 events), one call per device and chunk made 978 calls over 19-minute
 * tracks and was the slowest; sharing only overlapping windows made 2,350; 3 minutes made 2,172
 * and was the fastest.
 */
export const SHARED_CALL_GAP_MS = 180_000;

/**
 * The longest span one call covers: a device whose events follow each other all afternoon (a
 * backlog after an outage, a flapping sensor) would otherwise get hours of points in one answer.
 * 30 minutes is 360 points at the 5-second rate; a longer stretch takes several calls.
 */
export const LOOKUP_SPAN_MAX_MS = 30 * 60_000;

/** What one /api/gps call found, for the events of one device between `fromMs` and `toMs`. */
export interface GpsLookup {
  deviceid: string;
  fromMs: number;
  toMs: number;
  history: GpsHistory;
}

/** The lookups of a set of events, each event's history found by its device and time. */
export class GpsHistories {
  readonly #byDevice = new Map<string, GpsLookup[]>();

  constructor(readonly lookups: readonly GpsLookup[]) {
    for (const lookup of lookups) {
      const ofDevice = this.#byDevice.get(lookup.deviceid) ?? [];
      ofDevice.push(lookup);
      this.#byDevice.set(lookup.deviceid, ofDevice);
    }
  }

  /** The history looked up around an event (undefined for an event that was not looked up). */
  at(deviceid: string, eventMs: number): GpsHistory | undefined {
    return this.#byDevice.get(deviceid)?.find((lookup) => lookup.fromMs <= eventMs && eventMs <= lookup.toMs)
      ?.history;
  }
}

/**
 * The GPS history around each event: one /api/gps call per device and stretch of its events
 * (events closer than SHARED_CALL_GAP_MS share one, over LOOKUP_SPAN_MAX_MS at most), covering them
 * plus the nearest-point tolerance either side, all calls inside one time budget. A call that fails, is slow, or is not reached
 * within the budget gets the reason instead of a track; nothing here throws, so a lookup can delay
 * a chunk by the budget at most, never stop it.
 */
export async function lookUpGpsHistories(
  events: readonly Pick<DeviceEvent, "deviceid" | "eventtime">[],
  client: Pick<DeviceCloud, "gpsHistory">,
  settings: GpsLookupSettings,
  /** Ends the lookups early: the caller no longer needs them. */
  cancel?: AbortSignal,
): Promise<GpsHistories> {
  const windows = lookupWindows(events);
  if (settings.budgetMs <= 0)
    return new GpsHistories(
      windows.map((window) => ({ ...window, history: { status: "unavailable", reason: "disabled" } })),
    );
  const timeout = AbortSignal.timeout(settings.budgetMs);
  const budget = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  const lookups: GpsLookup[] = [];
  let next = 0;
  const worker = async () => {
    for (let window = windows[next++]; window; window = windows[next++]) {
      const history: GpsHistory = budget.aborted
        ? { status: "unavailable", reason: "over-budget" }
        : await lookUp(client, window, settings.speedUnit, budget);
      lookups.push({ ...window, history });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_LOOKUPS, windows.length) }, worker));
  return new GpsHistories(lookups);
}

async function lookUp(
  client: Pick<DeviceCloud, "gpsHistory">,
  { deviceid, fromMs, toMs }: LookupWindow,
  speedUnit: SpeedUnit,
  budget: AbortSignal,
): Promise<GpsHistory> {
  const request = {
    deviceid,
    start: Math.floor((fromMs - NEAREST_POINT_TOLERANCE_MS) / 1000),
    end: Math.ceil((toMs + NEAREST_POINT_TOLERANCE_MS) / 1000),
  };
  const history = await fetchGpsTrack(client, request, speedUnit, budget);
  // Points, but none plausible, place nothing either.
  return history.status === "ok" && history.track.length === 0
    ? { status: "unavailable", reason: "empty" }
    : history;
}

/**
 * ONE /api/gps call, as a track in km/h (possibly empty when every point was implausible), or why
 * there is none: `empty` when the service sent no point at all. Never throws. The alerts' lookups
 * and the evidence track both fetch through it.
 */
export async function fetchGpsTrack(
  client: Pick<DeviceCloud, "gpsHistory">,
  request: GpsHistoryRequest,
  unit: SpeedUnit,
  budget: AbortSignal,
): Promise<
  | { status: "ok"; track: TrackPoint[] }
  | { status: "unavailable"; reason: Extract<GpsHistoryGap, "empty" | "timeout" | "malformed" | "failed"> }
> {
  try {
    const points = await client.gpsHistory(request, { signal: budget });
    return points.length === 0
      ? { status: "unavailable", reason: "empty" }
      : { status: "ok", track: trackOf(points, unit) };
  } catch (error) {
    return { status: "unavailable", reason: gapOf(error, budget) };
  }
}

/** Why a /api/gps call under `budget` failed. */
function gapOf(
  error: unknown,
  budget: AbortSignal,
): Extract<GpsHistoryGap, "timeout" | "malformed" | "failed"> {
  if (budget.aborted) return "timeout";
  if (error instanceof DeviceCloudInvalidResponseError) return "malformed";
  return error instanceof DeviceCloudTimeoutError ? "timeout" : "failed";
}

type LookupWindow = Omit<GpsLookup, "history">;

/** The events' times cut into windows: per device, in time order, a new one after each long gap. */
function lookupWindows(events: readonly Pick<DeviceEvent, "deviceid" | "eventtime">[]): LookupWindow[] {
  const timesByDevice = new Map<string, number[]>();
  for (const event of events) {
    const times = timesByDevice.get(event.deviceid) ?? [];
    times.push(Date.parse(event.eventtime));
    timesByDevice.set(event.deviceid, times);
  }
  const windows: LookupWindow[] = [];
  for (const [deviceid, times] of timesByDevice) {
    let open: LookupWindow | undefined;
    for (const ms of times.sort((a, b) => a - b)) {
      // The gap between the two calls' ranges, each widened by the tolerance; and a bounded span.
      if (
        open &&
        ms - open.toMs - 2 * NEAREST_POINT_TOLERANCE_MS <= SHARED_CALL_GAP_MS &&
        ms - open.fromMs <= LOOKUP_SPAN_MAX_MS
      ) {
        open.toMs = ms;
      } else {
        open = { deviceid, fromMs: ms, toMs: ms };
        windows.push(open);
      }
    }
  }
  return windows;
}
