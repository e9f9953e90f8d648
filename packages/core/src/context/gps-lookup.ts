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

/** Devices looked up at once: a chunk can name 100 devices, and the service is not ours to flood. */
const CONCURRENT_LOOKUPS = 8;

/**
 * The GPS history of each device around its events: ONE /api/gps call per device, covering all of
 * its events (plus the nearest-point tolerance either side), all calls inside one time budget. A
 * device whose call fails, is slow, or is not reached within the budget gets the reason instead of
 * a track; nothing here throws, so a lookup can delay a chunk by the budget at most, never stop it.
 */
export async function lookUpGpsHistories(
  events: readonly Pick<DeviceEvent, "deviceid" | "eventtime">[],
  client: Pick<DeviceCloud, "gpsHistory">,
  settings: GpsLookupSettings,
  /** Ends the lookups early: the caller no longer needs them. */
  cancel?: AbortSignal,
): Promise<Map<string, GpsHistory>> {
  const ranges = rangesByDevice(events);
  const histories = new Map<string, GpsHistory>();
  if (settings.budgetMs <= 0) {
    for (const deviceid of ranges.keys())
      histories.set(deviceid, { status: "unavailable", reason: "disabled" });
    return histories;
  }
  const timeout = AbortSignal.timeout(settings.budgetMs);
  const budget = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  const queue = [...ranges];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [deviceid, range] = next;
      histories.set(
        deviceid,
        budget.aborted
          ? { status: "unavailable", reason: "over-budget" }
          : await lookUp(client, deviceid, range, settings.speedUnit, budget),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_LOOKUPS, queue.length) }, worker));
  return histories;
}

async function lookUp(
  client: Pick<DeviceCloud, "gpsHistory">,
  deviceid: string,
  range: { fromMs: number; toMs: number },
  speedUnit: SpeedUnit,
  budget: AbortSignal,
): Promise<GpsHistory> {
  const request = {
    deviceid,
    start: Math.floor((range.fromMs - NEAREST_POINT_TOLERANCE_MS) / 1000),
    end: Math.ceil((range.toMs + NEAREST_POINT_TOLERANCE_MS) / 1000),
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

function rangesByDevice(events: readonly Pick<DeviceEvent, "deviceid" | "eventtime">[]) {
  const ranges = new Map<string, { fromMs: number; toMs: number }>();
  for (const event of events) {
    const ms = Date.parse(event.eventtime);
    const range = ranges.get(event.deviceid);
    ranges.set(
      event.deviceid,
      range
        ? { fromMs: Math.min(range.fromMs, ms), toMs: Math.max(range.toMs, ms) }
        : { fromMs: ms, toMs: ms },
    );
  }
  return ranges;
}
