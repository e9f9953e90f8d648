import type { RecorderGap } from "../alerts/recorder-gap.js";
import { type TrackPoint, trackOf } from "../context/gps-track.js";
import type { SpeedUnit } from "../context/speed-unit.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import { type DailyRecordMap, MINUTE_RECORD } from "../devicecloud/schemas/records.js";
import type { CallBudget } from "./call-budget.js";
import { drivenMinutes, gapsOfRun, unrecordedRuns } from "./driving.js";
import { walkRuns } from "./gps-walk.js";
import { type AuditPeriod, MINUTE_MS } from "./period.js";

/** What the audit found of one device in one period. */
export const DEVICE_AUDIT_STATUSES = ["recording", "gaps", "parked", "not-reporting"] as const;
export type DeviceAuditStatus = (typeof DEVICE_AUDIT_STATUSES)[number];

export interface DeviceAudit {
  status: DeviceAuditStatus;
  /** The last time the device cloud heard from it (status `updatetime`, or a later fix). */
  lastHeardMs: number;
  recordedMinutes: number;
  gaps: RecorderGap[];
  /** The points read over its unrecorded minutes: where each gap begins. */
  track: TrackPoint[];
  /** Unrecorded minutes were left unwalked (gps-walk.ts, MAX_GPS_WINDOWS_PER_DEVICE). */
  truncated: boolean;
  /** The period's day's record map, when read (the retention estimate starts from it). */
  map?: DailyRecordMap;
}

export interface DeviceAuditDependencies {
  client: Pick<DeviceCloud, "dailyRecordMap" | "gpsHistory">;
  budget: CallBudget;
  speedUnit: SpeedUnit;
}

/**
 * Compares the minutes one device drove in `period` with its record map. A device the device cloud
 * did not hear from since the period began costs no call (it cannot have reported driving); the
 * others cost their day's map and the GPS windows over their unrecorded runs (gps-walk.ts). Runs
 * shorter than `gapMinutes` are not walked: they cannot hold a gap. Throws on a failed call.
 */
export async function auditDevice(
  device: FleetDevice,
  period: AuditPeriod,
  gapMinutes: number,
  deps: DeviceAuditDependencies,
): Promise<DeviceAudit> {
  const lastHeardMs = Math.max(Date.parse(device.updatetime), device.gpsdata?.time ?? 0);
  const audit = { lastHeardMs, recordedMinutes: 0, gaps: [], track: [], truncated: false };
  if (!(lastHeardMs >= period.startMs)) return { ...audit, status: "not-reporting" };
  const daySeconds = period.dayStartMs / 1000;
  deps.budget.spend();
  const map = await deps.client.dailyRecordMap({ deviceid: device.deviceid, date: daySeconds });
  let recordedMinutes = 0;
  for (let minute = period.fromMinute; minute < period.toMinute; minute++)
    if (map[minute] === MINUTE_RECORD.normal || map[minute] === MINUTE_RECORD.alert) recordedMinutes++;
  const runs = unrecordedRuns(map, period.fromMinute, period.toMinute, gapMinutes);
  const heardMinute =
    lastHeardMs < period.endMs ? Math.floor((lastHeardMs - period.dayStartMs) / MINUTE_MS) : undefined;
  const walked = await walkRuns(runs, map, heardMinute, async (from, to) => {
    deps.budget.spend();
    const points = await deps.client.gpsHistory({
      deviceid: device.deviceid,
      start: daySeconds + from * 60,
      // Inclusive or not, the spec does not show: the window ends a second before the next one.
      end: daySeconds + to * 60 - 1,
    });
    return trackOf(points, deps.speedUnit);
  });
  const driven = drivenMinutes(walked.track, period.dayStartMs);
  const gaps = runs.flatMap((run) => gapsOfRun(run, driven, map, period.dayStartMs, gapMinutes));
  const status = gaps.length > 0 ? "gaps" : recordedMinutes > 0 || driven.size > 0 ? "recording" : "parked";
  return {
    status,
    lastHeardMs,
    recordedMinutes,
    gaps,
    track: walked.track,
    truncated: walked.truncated,
    map,
  };
}
