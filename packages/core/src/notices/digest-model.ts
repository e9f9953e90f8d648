import type { AlertRecord } from "../alerts/record.js";
import type { RoutedItem } from "../routing/items.js";
import { deviceShown, displayName } from "../text/display.js";

const TOP_VEHICLES = 5;

/** What a group's digest says about its alerts of one day. */
export interface DigestModel {
  total: number;
  /** Of `total`, how many the group's quiet hours held (summarised after their window). */
  held: number;
  byRuleAndSeverity: { ruleId: string; severity: string; count: number }[];
  /** The vehicles (or devices without one) with most alerts, most first. */
  topVehicles: { name: string; count: number }[];
  /** By the alert record's evidence status; "none": no evidence asked for, or no record. */
  evidence: Record<"stored" | "unavailable" | "pending" | "failed" | "none", number>;
  /** Alerts nobody acknowledged, oldest first. */
  notAcknowledged: RoutedItem[];
}

/** Counts a day's routed alerts (each once, however often a replay indexed it), pure. */
export function digestModel(
  routed: readonly RoutedItem[],
  records: ReadonlyMap<string, AlertRecord>,
): DigestModel {
  const alerts = [...new Map(routed.map((item) => [item.alertId, item])).values()];
  const byRule = new Map<string, { ruleId: string; severity: string; count: number }>();
  const byVehicle = new Map<string, number>();
  const evidence = { stored: 0, unavailable: 0, pending: 0, failed: 0, none: 0 };
  for (const alert of alerts) {
    const ruleKey = `${alert.ruleId}\u0000${alert.severity}`;
    const row = byRule.get(ruleKey) ?? { ruleId: alert.ruleId, severity: alert.severity, count: 0 };
    byRule.set(ruleKey, { ...row, count: row.count + 1 });
    // As people read it: one line each (the digest's email lists them).
    const vehicle = displayName(alert.vehicleid) ?? `device ${deviceShown(alert.deviceid)}`;
    byVehicle.set(vehicle, (byVehicle.get(vehicle) ?? 0) + 1);
    evidence[records.get(alert.alertId)?.evidenceStatus ?? "none"] += 1;
  }
  const mostFirst = <T extends { count: number }>(rows: T[], name: (row: T) => string) =>
    rows.sort((a, b) => b.count - a.count || name(a).localeCompare(name(b)));
  return {
    total: alerts.length,
    held: alerts.filter((alert) => alert.held).length,
    byRuleAndSeverity: mostFirst([...byRule.values()], (row) => `${row.ruleId} ${row.severity}`),
    topVehicles: mostFirst(
      [...byVehicle].map(([name, count]) => ({ name, count })),
      (row) => row.name,
    ).slice(0, TOP_VEHICLES),
    evidence,
    notAcknowledged: alerts
      .filter((alert) => !records.get(alert.alertId)?.acknowledgement)
      .sort((a, b) => a.eventtime.localeCompare(b.eventtime)),
  };
}
