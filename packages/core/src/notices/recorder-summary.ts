import type { DeviceHealth } from "../recorder/health-items.js";
import type { RecorderHealth } from "../recorder/ports.js";
import type { Group } from "../routing/groups-schema.js";
import { selects } from "../routing/match.js";
import { NOT_RECORDING_RULE } from "../rules/not-recording.js";
import { deviceShown, displayName } from "../text/display.js";

/** The recorder audit's results, as the digest reads them: which accounts, when a device is offline. */
export interface RecorderSummarySource {
  health: Pick<RecorderHealth, "devices">;
  accounts: readonly string[];
  /** A device not heard from for more than this many days counts as offline (`recorderAudit.offlineDays`). */
  offlineDays: number;
}

/** The digest lists this many devices with gaps, and as many offline, at most: the rest are counted. */
export const RECORDER_SUMMARY_MAX_LISTED = 10;
/** A device whose last audit is older than this has left the fleet (or the audit has stopped): not counted. */
const AUDIT_FRESH_MS = 3 * 86_400_000;

export interface RecorderSummary {
  offlineDays: number;
  recording: number;
  withGaps: number;
  offline: number;
  /** Heard lately, nothing driven or recorded in the last period: parked. */
  parked: number;
  /** The first RECORDER_SUMMARY_MAX_LISTED of each, as people read them. */
  gapsListed: { name: string; minutes: number }[];
  offlineListed: { name: string; lastHeardMs: number }[];
}

/**
 * A group's fleet of recorders as the audit last found them: the devices of the accounts (and
 * devices, vehicles) the group selects for a not-recording alert, counted item by item as they are
 * read, so that a fleet of any size holds its counts and twenty names.
 */
export async function recorderSummary(
  group: Group,
  source: RecorderSummarySource,
  nowMs: number,
): Promise<RecorderSummary> {
  const summary: RecorderSummary = {
    offlineDays: source.offlineDays,
    recording: 0,
    withGaps: 0,
    offline: 0,
    parked: 0,
    gapsListed: [],
    offlineListed: [],
  };
  const accounts = source.accounts.filter((account) => group.select.accounts?.includes(account) ?? true);
  for (const account of accounts)
    for await (const device of source.health.devices(account)) {
      if (device.auditedAtMs === undefined || nowMs - device.auditedAtMs > AUDIT_FRESH_MS) continue;
      if (!selectsDevice(group, account, device)) continue;
      add(summary, device, nowMs);
    }
  return summary;
}

function selectsDevice(group: Group, account: string, device: DeviceHealth): boolean {
  const { id, severity } = NOT_RECORDING_RULE;
  return selects(group.select, {
    alertId: "",
    account,
    serialno: "",
    ruleId: id,
    severity,
    deviceid: device.deviceid,
    ...(device.vehicleid !== undefined && { vehicleid: device.vehicleid }),
    eventtime: "",
  });
}

function add(summary: RecorderSummary, device: DeviceHealth, nowMs: number): void {
  // As people read it, one line (notices/format.ts's alertLine names vehicles the same way).
  const vehicle = displayName(device.vehicleid);
  const name = `${vehicle ? `vehicle ${vehicle} (device ${deviceShown(device.deviceid)})` : `device ${deviceShown(device.deviceid)}`}`;
  const lastHeardMs = device.lastHeardMs ?? 0;
  if (nowMs - lastHeardMs > summary.offlineDays * 86_400_000) {
    summary.offline++;
    if (summary.offlineListed.length < RECORDER_SUMMARY_MAX_LISTED)
      summary.offlineListed.push({ name, lastHeardMs });
  } else if (device.status === "gaps") {
    summary.withGaps++;
    if (summary.gapsListed.length < RECORDER_SUMMARY_MAX_LISTED)
      summary.gapsListed.push({ name, minutes: device.gapMinutes ?? 0 });
  } else if (device.status === "recording") summary.recording++;
  else summary.parked++;
}
