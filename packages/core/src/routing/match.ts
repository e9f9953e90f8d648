import { SEVERITIES, type Severity } from "../rules/schema.js";
import type { Group, Selector } from "./groups-schema.js";

/** What the selectors read of an alert: its record's and its published body's facts. */
export interface RoutableAlert {
  alertId: string;
  account: string;
  /** Digits, as the device cloud sent them. */
  serialno: string;
  ruleId: string;
  severity: Severity;
  deviceid: string;
  /** Absent when the device cloud sent none: a group with a vehiclePattern then does not match. */
  vehicleid?: string;
  eventtime: string;
}

/** True when `severity` is `floor` or above. */
export function severityAtLeast(severity: Severity, floor: Severity): boolean {
  return SEVERITIES.indexOf(severity) >= SEVERITIES.indexOf(floor);
}

// Patterns are few (one per group) and fixed per container: compiled once each.
const patterns = new Map<string, RegExp>();

function wholeMatch(pattern: string, value: string): boolean {
  let compiled = patterns.get(pattern);
  if (!compiled) {
    // Anchored around a group, so that "a|b" means the whole id is a or b.
    compiled = new RegExp(`^(?:${pattern})$`);
    patterns.set(pattern, compiled);
  }
  return compiled.test(value);
}

/** Every field of a selector narrows; an absent one lets everything through. */
export function selects(selector: Selector, alert: RoutableAlert): boolean {
  if (selector.accounts && !selector.accounts.includes(alert.account)) return false;
  if (selector.rules && !selector.rules.includes(alert.ruleId)) return false;
  if (selector.devices && !selector.devices.includes(alert.deviceid)) return false;
  if (selector.vehiclePattern !== undefined) {
    if (alert.vehicleid === undefined || !wholeMatch(selector.vehiclePattern, alert.vehicleid)) return false;
  }
  return severityAtLeast(alert.severity, selector.minSeverity);
}

/** The groups whose selectors match the alert, in the file's order. */
export function matchingGroups(groups: readonly Group[], alert: RoutableAlert): Group[] {
  return groups.filter((group) => selects(group.select, alert));
}
