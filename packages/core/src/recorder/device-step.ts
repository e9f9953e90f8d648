import type { DeliveryDependencies } from "../alerts/delivery.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import { MINUTE_RECORD } from "../devicecloud/schemas/records.js";
import type { DeviceAudit } from "./audit-device.js";
import type { CallBudget } from "./call-budget.js";
import { type GapAlertSettings, raiseGapAlert } from "./gap-alert.js";
import { type AuditPeriod, DAY_MS } from "./period.js";
import type { RecorderHealth } from "./ports.js";
import { estimateRetention, MAX_RETENTION_CALLS } from "./retention-estimate.js";

export type DeviceStepSettings = GapAlertSettings;

/** A card's estimate is refreshed this often: cards are replaced, rarely. */
export const RETENTION_REFRESH_MS = 7 * DAY_MS;

/** What a run found, counted over its devices. */
export interface AuditFindings {
  devicesAudited: number;
  gaps: number;
  failures: number;
  retentionsEstimated: number;
}

interface StepDependencies extends DeliveryDependencies {
  client: Pick<DeviceCloud, "dailyRecordMap">;
  health: RecorderHealth;
  budget: CallBudget;
}

/**
 * What follows one device's audit: each gap's alert raised (before anything says the device is
 * done, so a crash leaves it to the next run, which finds the same records), its result kept for
 * the digest, and its card's retention estimated when the estimate is missing or a week old and
 * the run's budget has room for it.
 */
export async function recordFindings(
  device: FleetDevice,
  period: AuditPeriod,
  found: DeviceAudit,
  settings: DeviceStepSettings,
  deps: StepDependencies,
  findings: AuditFindings,
): Promise<void> {
  const { account } = settings;
  for (const gap of found.gaps) {
    const raised = await raiseGapAlert(device, gap, found.track, settings, deps);
    findings.gaps++;
    if (!raised.created) continue;
    deps.observer.observe({
      type: "recorder-gap",
      account,
      alertId: raised.alertId,
      serialno: raised.serialno.toString(),
      rule: "not-recording",
      deviceid: device.deviceid,
      from: new Date(gap.fromMs).toISOString(),
      to: new Date(gap.toMs).toISOString(),
      minutes: gap.minutes,
      kind: gap.kind,
    });
  }
  const nowMs = deps.now();
  await deps.health.saveAudit(account, device.deviceid, {
    periodStartMs: period.startMs,
    status: found.status,
    lastHeardMs: found.lastHeardMs,
    recordedMinutes: found.recordedMinutes,
    gapMinutes: found.gaps.reduce((sum, gap) => sum + gap.minutes, 0),
    vehicleid: device.vehicleid,
    auditedAtMs: nowMs,
  });
  findings.devicesAudited++;
  const { map } = found;
  // Nothing recorded that day: nothing to count back from (estimateRetention would find so, at a cost).
  if (!map || !hasVideo(map) || !deps.budget.allows(MAX_RETENTION_CALLS)) return;
  const known = await deps.health.device(account, device.deviceid);
  if (
    known?.retentionEstimatedAtMs !== undefined &&
    nowMs - known.retentionEstimatedAtMs < RETENTION_REFRESH_MS
  )
    return;
  const estimate = await estimateRetention(async (daysBack) => {
    if (daysBack === 0) return hasVideo(map);
    deps.budget.spend();
    const date = (period.dayStartMs - daysBack * DAY_MS) / 1000;
    return hasVideo(await deps.client.dailyRecordMap({ deviceid: device.deviceid, date }));
  });
  if (!estimate) return;
  await deps.health.saveRetention(account, device.deviceid, estimate, nowMs);
  findings.retentionsEstimated++;
  deps.observer.observe({ type: "retention-estimated", account, deviceid: device.deviceid, ...estimate });
}

function hasVideo(map: readonly number[]): boolean {
  return map.some((value) => value === MINUTE_RECORD.normal || value === MINUTE_RECORD.alert);
}
