import type { AlertRecord } from "../alerts/record.js";
import type { RoutedItem } from "../routing/items.js";
import { deviceShown, displayName } from "../text/display.js";
import { OldestFirst } from "./oldest-first.js";

const TOP_VEHICLES = 5;
/** A day's digest lists at most this many unacknowledged alerts (an email must stay readable). */
export const DIGEST_MAX_LISTED = 100;

/** What the digest reads of an alert's record: no message, no names. */
export interface DigestRecordFacts {
  evidenceStatus?: AlertRecord["evidenceStatus"];
  acknowledged: boolean;
}

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
  /** How many alerts nobody acknowledged. */
  notAcknowledged: number;
  /** The oldest of them by event time, at most the tally's `listed`: what the email lists. */
  oldestNotAcknowledged: RoutedItem[];
}

/**
 * A day's routed alerts counted as they are read, page by page (pure): what it keeps grows with the
 * fleet's vehicles and the rules, never with the number of alerts. Each routed item is one alert:
 * the routing step writes it once per alert and group, keyed by the alert's decision time, which a
 * replay reads back (route-alert.ts), so a replay indexes the same item again, not a second one.
 */
export class DigestTally {
  #total = 0;
  #held = 0;
  readonly #byRule = new Map<string, { ruleId: string; severity: string; count: number }>();
  readonly #byVehicle = new Map<string, number>();
  readonly #evidence = { stored: 0, unavailable: 0, pending: 0, failed: 0, none: 0 };
  readonly #notAcknowledged: OldestFirst<RoutedItem>;

  constructor(listed = DIGEST_MAX_LISTED) {
    this.#notAcknowledged = new OldestFirst(listed);
  }

  add(alert: RoutedItem, record: DigestRecordFacts | undefined): void {
    this.#total++;
    if (alert.held) this.#held++;
    const ruleKey = `${alert.ruleId}\u0000${alert.severity}`;
    const row = this.#byRule.get(ruleKey) ?? { ruleId: alert.ruleId, severity: alert.severity, count: 0 };
    this.#byRule.set(ruleKey, { ...row, count: row.count + 1 });
    // As people read it: one line each (the digest's email lists them).
    const vehicle = displayName(alert.vehicleid) ?? `device ${deviceShown(alert.deviceid)}`;
    this.#byVehicle.set(vehicle, (this.#byVehicle.get(vehicle) ?? 0) + 1);
    // Waiting for its vehicle is pending still, as the digest counts it.
    const evidence = record?.evidenceStatus === "waiting" ? "pending" : record?.evidenceStatus;
    this.#evidence[evidence ?? "none"] += 1;
    if (!record?.acknowledged) this.#notAcknowledged.add(alert);
  }

  model(): DigestModel {
    const mostFirst = <T extends { count: number }>(rows: T[], name: (row: T) => string) =>
      rows.sort((a, b) => b.count - a.count || name(a).localeCompare(name(b)));
    return {
      total: this.#total,
      held: this.#held,
      byRuleAndSeverity: mostFirst([...this.#byRule.values()], (row) => `${row.ruleId} ${row.severity}`),
      topVehicles: mostFirst(
        [...this.#byVehicle].map(([name, count]) => ({ name, count })),
        (row) => row.name,
      ).slice(0, TOP_VEHICLES),
      evidence: { ...this.#evidence },
      notAcknowledged: this.#notAcknowledged.count,
      oldestNotAcknowledged: [...this.#notAcknowledged.listed],
    };
  }
}
