import type { Observer } from "@fleet-alerts/core";
import type { AlertStore } from "@fleet-alerts/core/alerts";
import { type AcknowledgementStore, acknowledge } from "@fleet-alerts/core/escalation";
import { bagFolderName, claimPackZipKey } from "@fleet-alerts/core/evidence";
import type { AccessAudit } from "@fleet-alerts/core/share";
import { incidentOf } from "../incident-model.js";
import type {
  Acknowledgements,
  AlertRef,
  AccessAudit as AuditPort,
  EvidenceLinks,
  Incidents,
} from "../ports.js";
import type { ClaimPackZips } from "./claim-pack-zips.js";
import type { EvidenceObjects } from "./evidence-objects.js";

// The app's ports over the stores of core. A grant names an alert by its record's key; every
// adapter reads that record itself, so nothing a request carries picks what is read or signed.

type Alerts = Pick<AlertStore, "get">;

const recordOf = (alerts: Alerts, alert: AlertRef) => alerts.get(alert.account, alert.serialno, alert.ruleId);

/** Core's acknowledgement (validation, the conditional write, the `alert-acknowledged` observation). */
export function acknowledgementsPort(
  alerts: Alerts,
  acknowledgements: AcknowledgementStore,
  observer: Observer,
): Acknowledgements {
  return {
    async acknowledge(alert, acknowledgement) {
      const record = await recordOf(alerts, alert);
      if (!record) throw new Error(`no alert record ${alert.alertId}`);
      return acknowledge(record, acknowledgement, { acknowledgements, observer });
    },
  };
}

export function auditPort(audit: Pick<AccessAudit, "record">): AuditPort {
  return { recordAccess: (access) => audit.record(access) };
}

export function evidenceLinksPort(
  alerts: Alerts,
  objects: EvidenceObjects,
  zips: ClaimPackZips,
): EvidenceLinks {
  return {
    // The app passes only keys listed in this alert's manifest (read through `incidents.load`).
    presignClip: (_alert, key) => objects.presign(key),
    async claimPack(alert) {
      const record = await recordOf(alerts, alert);
      // The page's own condition: a settled set with its custody record, whose folder is the bag.
      const set = record && (await objects.stored(record));
      if (!set) return { status: "none" };
      const key = claimPackZipKey(set.prefix);
      if (!(await zips.exists(key))) return { status: "not-built" };
      return { status: "ready", url: await zips.presign(key, `${bagFolderName(alert.alertId)}.zip`) };
    },
    requestClaimPack: (alert) => zips.request(alert.alertId),
  };
}

export function incidentsPort(alerts: Alerts, objects: EvidenceObjects, fleetTimeZone: string): Incidents {
  return {
    async load(alert) {
      const record = await recordOf(alerts, alert);
      if (!record) return undefined;
      return incidentOf(record, await objects.stored(record), fleetTimeZone);
    },
  };
}
