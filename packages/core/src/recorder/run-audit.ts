import type { DeliveryDependencies } from "../alerts/delivery.js";
import type { SpeedUnit } from "../context/speed-unit.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import { auditDevice } from "./audit-device.js";
import { CallBudget } from "./call-budget.js";
import { type AuditFindings, type DeviceStepSettings, recordFindings } from "./device-step.js";
import { GapAlertBusyError } from "./gap-alert.js";
import { MAX_GPS_WINDOWS_PER_DEVICE } from "./gps-walk.js";
import type { RecorderAuditOutcome } from "./outcomes.js";
import { type AuditPeriod, DAY_MS, duePeriod, nextPeriod, periodAt } from "./period.js";
import type { RecorderHealth } from "./ports.js";
import type { RecorderAuditSettings } from "./settings.js";

export interface RecorderAuditRunSettings extends DeviceStepSettings {
  audit: RecorderAuditSettings;
  /** The device cloud's day starts (FLEET_UTC_OFFSET), as its record maps begin. */
  utcOffsetMinutes: number;
  speedUnit: SpeedUnit;
}

export interface RecorderAuditDependencies extends DeliveryDependencies {
  client: Pick<DeviceCloud, "allDevices" | "dailyRecordMap" | "gpsHistory">;
  health: RecorderHealth;
}

/** Periods further back than this are not audited after an outage: the run goes on from there. */
const MAX_BACKLOG_DAYS = 7;
/** So many devices failing in a row means the device cloud is failing: stop, retry them next run. */
const MAX_FAILURES_IN_A_ROW = 5;

export interface RecorderAuditSummary extends AuditFindings {
  account: string;
  period: string;
  outcome: RecorderAuditOutcome;
  calls: number;
}

/**
 * One run of an account's recorder audit: from its cursor (the period, the last device done), each
 * device of the all-devices list in id order (auditDevice), its gaps raised as alerts, its result
 * and now and then its card's retention kept (device-step.ts), the cursor moved past it; then the
 * next due period. A device is begun only while `callsPerRun` has room for its worst case, and
 * before the deadline, so a fleet too large for one run is spread over several; one device's
 * failure is observed and passed over.
 */
export async function runRecorderAudit(
  settings: RecorderAuditRunSettings,
  deps: RecorderAuditDependencies,
  deadlineMs: number,
): Promise<RecorderAuditSummary> {
  const { account, audit } = settings;
  // Real time (`now` may be a simulated clock).
  const pastDeadline = () => (deps.wallClock ?? Date.now)() >= deadlineMs;
  const budget = new CallBudget(audit.callsPerRun);
  const findings: AuditFindings = { devicesAudited: 0, gaps: 0, failures: 0, retentionsEstimated: 0 };
  const due = duePeriod(deps.now(), audit.everyHours, settings.utcOffsetMinutes);
  let cursor = await deps.health.cursor(account);
  let period = firstOwed(cursor, due, settings);
  const summary = (outcome: RecorderAuditOutcome): RecorderAuditSummary => {
    const done = {
      account,
      period: new Date((period ?? due).startMs).toISOString(),
      outcome,
      calls: budget.used,
    };
    deps.observer.observe({ type: "recorder-audit-summary", ...done, ...findings });
    return { ...done, ...findings };
  };
  if (!period) return summary("idle");
  budget.spend();
  const devices = sortedById(await deps.client.allDevices());
  let after = cursor?.done === false ? cursor.afterDevice : undefined;
  for (;;) {
    let failuresInARow = 0;
    for (const device of devices) {
      if (after !== undefined && device.deviceid <= after) continue;
      if (pastDeadline()) return summary("deadline");
      if (!budget.allows(1 + MAX_GPS_WINDOWS_PER_DEVICE)) return summary("budget");
      try {
        const found = await auditDevice(device, period, audit.gapMinutes, { ...deps, budget, ...settings });
        await recordFindings(device, period, found, settings, { ...deps, budget }, findings);
        failuresInARow = 0;
      } catch (error) {
        // Another run is on this device (it sends one of its alerts): it moves the cursor on.
        if (error instanceof GapAlertBusyError) return summary("cursor-moved");
        findings.failures++;
        deps.observer.observe({
          type: "recorder-audit-failed",
          account,
          deviceid: device.deviceid,
          reason: error instanceof Error ? error.message : String(error),
        });
        if (++failuresInARow >= MAX_FAILURES_IN_A_ROW) return summary("failing");
        continue;
      }
      const moved = await deps.health.moveCursor(
        account,
        { periodStartMs: period.startMs, afterDevice: device.deviceid, done: false },
        cursor?.version,
      );
      if (!moved) return summary("cursor-moved");
      cursor = {
        periodStartMs: period.startMs,
        afterDevice: device.deviceid,
        done: false,
        version: (cursor?.version ?? 0) + 1,
      };
    }
    if (
      !(await deps.health.moveCursor(account, { periodStartMs: period.startMs, done: true }, cursor?.version))
    )
      return summary("cursor-moved");
    cursor = { periodStartMs: period.startMs, done: true, version: (cursor?.version ?? 0) + 1 };
    if (period.startMs >= due.startMs) return summary("done");
    period = nextPeriod(period, audit.everyHours, settings.utcOffsetMinutes);
    after = undefined;
  }
}

/** The period the run begins with: the cursor's unfinished one, the one after it, or the due one. */
function firstOwed(
  cursor: { periodStartMs: number; done: boolean } | undefined,
  due: AuditPeriod,
  settings: Pick<RecorderAuditRunSettings, "audit" | "utcOffsetMinutes">,
): AuditPeriod | undefined {
  const at = (startMs: number) => periodAt(startMs, settings.audit.everyHours, settings.utcOffsetMinutes);
  // A first run audits the latest period only: older ones were before the audit was set up.
  if (!cursor) return due;
  if (!cursor.done) return at(cursor.periodStartMs);
  if (cursor.periodStartMs >= due.startMs) return undefined;
  const next = nextPeriod(at(cursor.periodStartMs), settings.audit.everyHours, settings.utcOffsetMinutes);
  const oldest = due.endMs - MAX_BACKLOG_DAYS * DAY_MS;
  return next.startMs >= oldest ? next : at(oldest);
}

/** The all-devices list in id order, each id once: the order the cursor resumes in. */
function sortedById(devices: readonly FleetDevice[]): FleetDevice[] {
  const byId = new Map(devices.map((device) => [device.deviceid, device]));
  return [...byId.values()].sort((a, b) => (a.deviceid < b.deviceid ? -1 : a.deviceid > b.deviceid ? 1 : 0));
}
