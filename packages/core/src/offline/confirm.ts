import type { DeliveryDependencies } from "../alerts/delivery.js";
import { RECORD_CLAIM_LEASE_MS } from "../alerts/delivery-ledger.js";
import { deliverRaisedAlert } from "../alerts/hand-on.js";
import { newAlertRecord } from "../alerts/new-record.js";
import type { AlertRecords } from "../alerts/ports.js";
import { alertIdOf } from "../alerts/record.js";
import { awsJson } from "../aws-text.js";
import { type GpsLookupSettings, lookUpGpsHistories } from "../context/gps-lookup.js";
import { resolveIncidentContext } from "../context/incident-context.js";
import { EVENT_CODES } from "../devicecloud/codes.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { RuleStates } from "../poller/ports.js";
import { type JobQueue, sendEvery } from "../queue/ports.js";
import { applyCooldown } from "../rules/evaluator.js";
import type { Rule } from "../rules/schema.js";
import type { OfflineCheckJob } from "./check.js";
import type { OfflineChecks } from "./ports.js";

export interface ConfirmDependencies extends DeliveryDependencies {
  client: DeviceCloud;
  alerts: AlertRecords;
  offlineChecks: OfflineChecks;
  states: RuleStates;
  confirmQueue: JobQueue;
}

export interface ConfirmSettings {
  rules: readonly Rule[];
  fleetTimeZone: string;
  /** How the GPS history around the Offline event is looked up, for the alert's position. */
  gps: GpsLookupSettings;
  /** Where incident links start (PUBLIC_BASE_URL); none: the alert carries no link. */
  linkBaseUrl?: string;
}

export type ConfirmOutcome = "requeued" | "not-pending" | "back-online" | "alerted" | "suppressed" | "busy";

/**
 * Handles a due Offline check: if the device is still offline (absent from the online list), the
 * Offline alert goes out (subject to the rule's cooldown); if it came back, the check is cancelled.
 * A message delivered after an Online event cancelled the check, or after another delivery
 * settled it, finds it settled and does nothing. Two deliveries at once (SQS delivering a message
 * twice, a replay scheduling the check again) publish once: the alert record is claimed before it
 * is published, and the delivery that finds it claimed (`busy`) sends the job back for when the
 * claim runs out, by which time the other has settled the check or, if it crashed, its claim is
 * taken over. Safe to retry after a crash at any step.
 */
export async function confirmOffline(
  job: OfflineCheckJob,
  settings: ConfirmSettings,
  deps: ConfirmDependencies,
): Promise<ConfirmOutcome> {
  const serialno = BigInt(job.serialno);
  const ids = { account: job.account, serialno: job.serialno, deviceid: job.deviceid, rule: job.ruleId };
  const waitMs = job.dueAtMs - deps.now();
  if (waitMs > 0) {
    // SQS delays 15 minutes at most: a longer confirmation waits in steps.
    await sendEvery(deps.confirmQueue, [{ body: awsJson(job), delaySeconds: waitMs / 1000 }]);
    return "requeued";
  }
  const check = await deps.offlineChecks.get(job.account, job.deviceid, job.ruleId);
  const rule = settings.rules.find((candidate) => candidate.id === job.ruleId);
  if (check?.status !== "pending" || check.serialno !== serialno) return "not-pending";
  if (!rule) {
    deps.observer.observe({ type: "offline-cancelled", ...ids, reason: "rule-removed" });
    await deps.offlineChecks.settle(job.account, job.deviceid, job.ruleId, serialno, "cancelled");
    return "not-pending";
  }

  let record = await deps.alerts.get(job.account, serialno, rule.id);
  if (!record) {
    const online = await deps.client.onlineDevices();
    if (online.some((device) => device.deviceid === job.deviceid)) {
      await deps.offlineChecks.settle(job.account, job.deviceid, job.ruleId, serialno, "cancelled");
      deps.observer.observe({ type: "offline-cancelled", ...ids, reason: "online-again" });
      return "back-online";
    }
    const state = (await deps.states.get(job.account, job.deviceid, rule.id)) ?? {
      suppressed: 0,
      seenSerialno: 0n,
    };
    const outcome = applyCooldown(rule, state, serialno, Date.parse(job.eventtime));
    if (outcome.decision.kind === "suppressed") {
      // Settled first: a crash between the two loses one count rather than counting twice.
      await deps.offlineChecks.settle(job.account, job.deviceid, job.ruleId, serialno, "confirmed");
      await deps.states.save(job.account, job.deviceid, rule.id, outcome.state, ["suppressed"]);
      deps.observer.observe({ type: "offline-suppressed", ...ids });
      return "suppressed";
    }
    const device = (await deps.client.allDevices().catch(() => [])).find(
      (candidate) => candidate.deviceid === job.deviceid,
    );
    const event = {
      serialno,
      deviceid: job.deviceid,
      appdevid: EVENT_CODES.Offline,
      eventtime: job.eventtime,
    };
    // The service logs Offline itself, without coordinates: the track up to the drop, else the
    // last fix (for a device offline since, that is where it went offline).
    const histories = await lookUpGpsHistories([event], deps.client, settings.gps);
    const history = histories.at(job.deviceid, Date.parse(job.eventtime)) ?? {
      status: "unavailable",
      reason: "failed",
    };
    await deps.alerts.record(
      newAlertRecord({
        account: job.account,
        event,
        rule,
        status: "pending",
        suppressedBefore: outcome.decision.suppressedBefore,
        device,
        incident: resolveIncidentContext({ event, rule, device, history }),
        fleetTimeZone: settings.fleetTimeZone,
        confirmedOfflineMinutes: rule.offlineForMinutes,
        linkBaseUrl: settings.linkBaseUrl,
      }),
      deps.now(),
    );
    await deps.states.save(job.account, job.deviceid, rule.id, outcome.state, [
      "lastAlertSerialno",
      "lastAlertEventMs",
      "suppressed",
    ]);
    record = await deps.alerts.get(job.account, serialno, rule.id);
  }
  if ((await deliverRaisedAlert(record, deps)) === "busy") {
    // Nothing may finish this message while the alert's fate is another delivery's: SQS may have
    // given both deliveries the same message, and the other's may never be retried.
    await sendEvery(deps.confirmQueue, [{ body: awsJson(job), delaySeconds: RECORD_CLAIM_LEASE_MS / 1000 }]);
    deps.observer.observe({ type: "offline-busy", ...ids });
    return "busy";
  }
  await deps.offlineChecks.settle(job.account, job.deviceid, job.ruleId, serialno, "confirmed");
  deps.observer.observe({
    type: "offline-confirmed",
    ...ids,
    alertId: alertIdOf(job.account, serialno, job.ruleId),
  });
  return "alerted";
}
