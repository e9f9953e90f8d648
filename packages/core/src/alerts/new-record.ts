import type { IncidentContext } from "../context/incident-context.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import type { Rule } from "../rules/schema.js";
import { buildAlertMessage } from "./message.js";
import { alertIdOf, type NewAlertRecord } from "./record.js";
import type { RecorderGap } from "./recorder-gap.js";

/**
 * `pending`: to be published; `stale`: recorded, never sent. Either way its message is rendered now,
 * at the event's place: a stale alert's body is what its claim pack, its incident page and the
 * groups' selectors read of it (the vehicle, the driver, the event as the alert would have said it).
 */
export interface NewAlertRecordInput extends AlertRecordBasis {
  status: "pending" | "stale";
  incident: IncidentContext;
}

interface AlertRecordBasis {
  account: string;
  event: DeviceEvent;
  rule: Rule;
  /** Repeats suppressed by the cooldown since the previous alert of this rule and device. */
  suppressedBefore: number;
  /** The device's entry in the all-devices list, when it could be had: vehicle and driver. */
  device: FleetDevice | undefined;
  fleetTimeZone: string;
  /** For an Offline alert sent once the device had stayed offline this many minutes. */
  confirmedOfflineMinutes?: number;
  /** Where incident links start; none: the message carries no link. */
  linkBaseUrl?: string;
  /** For a "not recording" alert of the recorder audit: the stretch driven without video. */
  recorderGap?: RecorderGap;
}

/**
 * The alert record of one event and rule, as the poller and the Offline confirmation write it: the
 * message rendered once (a replay publishes exactly what was decided), when the rule wants video,
 * the evidence request with the event as received (a stale alert's too: its footage is collected
 * all the same), and when it escalates and is to be sent, its escalation policy.
 */
export function newAlertRecord(input: NewAlertRecordInput): NewAlertRecord {
  const { account, event, rule } = input;
  return {
    account,
    serialno: event.serialno,
    ruleId: rule.id,
    deviceid: event.deviceid,
    appdevid: event.appdevid,
    eventtime: event.eventtime,
    severity: rule.severity,
    status: input.status,
    message: buildAlertMessage({
      alertId: alertIdOf(account, event.serialno, rule.id),
      account,
      event,
      rule,
      suppressedBefore: input.suppressedBefore,
      device: input.device,
      incident: input.incident,
      fleetTimeZone: input.fleetTimeZone,
      confirmedOfflineMinutes: input.confirmedOfflineMinutes,
      linkBaseUrl: input.linkBaseUrl,
      recorderGap: input.recorderGap,
    }),
    ...(rule.evidence && { evidence: rule.evidence, event: eventAsReceived(event) }),
    // Fixed as the alert fires: the escalation follows this copy, whatever the rule says later.
    ...(input.status === "pending" && rule.escalate && { escalation: { ...rule.escalate } }),
  };
}

/** The event as JSON, its serial number as the digits the service sent. */
export function eventAsReceived(event: DeviceEvent): string {
  return JSON.stringify(event, (_key, value: unknown) =>
    typeof value === "bigint" ? value.toString() : value,
  );
}
