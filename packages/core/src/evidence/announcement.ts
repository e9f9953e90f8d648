import type { AlertMessage } from "../alerts/message.js";
import { stringAttributes } from "../alerts/render/attributes.js";
import { SNS_MAX_SUBJECT_LENGTH } from "../aws-limits.js";
import { SMS_SEGMENT_LENGTH, toAscii, toGsm } from "../text/alphabet.js";
import { deviceShown } from "../text/display.js";
import { fitLine } from "../text/fit.js";
import type { EvidenceJob } from "./job.js";
import { type EvidenceManifest, isClaimPackManifest, type OverwrittenFootage } from "./manifest.js";
import { atRiskSentence, overwrittenSentence } from "./waiting-text.js";

/**
 * The "evidence ready" (or "unavailable") message to the alerts topic. Its `kind` attribute is
 * `evidence`, so that a subscriber (an insurer's queue) can filter for it, and alert subscribers
 * can filter it out. Subject and SMS name the device in the alphabets and within the limits of an
 * alert's, so that they reach the same subscribers as safely. With the alert's incident `link`,
 * email and SMS end with it as the alert's own did (the SMS's text cut to leave it whole); the JSON
 * body never holds it, as an alert's does not: machine subscribers get ids, not access.
 */
export function evidenceAnnouncement(
  job: EvidenceJob,
  outcome:
    | { status: "stored"; bucket: string; manifestKey: string; manifest: EvidenceManifest }
    | { status: "unavailable"; overwritten?: OverwrittenFootage },
  link?: string,
): AlertMessage {
  const attributes = noticeAttributes(job, outcome.status);
  const what = eventDescription(job);
  const event = ` event ${job.serialno}`;
  const linkLine = incidentLinkLine(link);
  const sms = (head: string, tail: string) => smsLine(head, job.deviceid, tail, link);
  if (outcome.status === "unavailable") {
    const text = `No video evidence could be fetched for ${what}: ${
      outcome.overwritten
        ? overwrittenSentence(outcome.overwritten)
        : "the device has not recorded or uploaded those minutes."
    }`;
    return {
      subject: subjectLine("Evidence unavailable - ", job.deviceid),
      email: `${text}\n${linkLine}\nAlert: ${job.alertId}\n`,
      sms: sms("Evidence unavailable: ", event),
      default: JSON.stringify({
        kind: "evidence",
        status: "unavailable",
        alertId: job.alertId,
        deviceid: job.deviceid,
        serialno: job.serialno,
        ...(outcome.overwritten && { footage: { outcome: "overwritten", ...outcome.overwritten } }),
      }),
      attributes,
    };
  }
  const { manifest } = outcome;
  const lines = manifest.clips.map(
    (clip) =>
      `  s3://${outcome.bucket}/${clip.key}  channel ${clip.channel}, ${clip.bytes} bytes, sha256 ${clip.sha256}`,
  );
  const partial = manifest.coverage.partial
    ? `\nOnly ${manifest.coverage.recordedMinutes} of ${manifest.coverage.totalMinutes} minutes were recorded; the manifest lists the gaps.\n`
    : "";
  // Sets since claim packs are a bag under the manifest's folder, with a report to open.
  const bag = outcome.manifestKey.slice(0, -"manifest.json".length);
  const claimPack = isClaimPackManifest(manifest)
    ? `\nClaim pack (a BagIt bag; open its report.html): s3://${outcome.bucket}/${bag}\nFor an insurer: fleet-alerts evidence pack ${job.alertId} --out claim.zip\n`
    : "";
  return {
    subject: subjectLine("Evidence ready - ", job.deviceid, event),
    email: `Video evidence is stored for ${what}.\n\nManifest: s3://${outcome.bucket}/${outcome.manifestKey}\nClips:\n${lines.join("\n")}\n${partial}${claimPack}${linkLine}\nAlert: ${job.alertId}\n`,
    sms: sms("Evidence ready: ", `${event}, ${manifest.clips.length} clip(s)`),
    default: JSON.stringify({
      kind: "evidence",
      status: "stored",
      alertId: job.alertId,
      deviceid: job.deviceid,
      serialno: job.serialno,
      bucket: outcome.bucket,
      manifestKey: outcome.manifestKey,
      clips: manifest.clips.map(({ key, channel, bytes, sha256 }) => ({ key, channel, bytes, sha256 })),
      partial: manifest.coverage.partial,
    }),
    attributes,
  };
}

/**
 * "Footage at risk": the alert's footage is still on the card of a vehicle offline for more than half
 * of the card's retention. Sent once per alert (sweep.ts), with the alert's link as its evidence
 * notice carries it; `kind` evidence, `evidence_status` at-risk.
 */
export function atRiskAnnouncement(
  job: EvidenceJob,
  wait: { offlineSinceMs: number; keptUntilMs: number; retentionDays: number | null },
  link?: string,
): AlertMessage {
  return {
    subject: subjectLine("Footage at risk - ", job.deviceid),
    email: `Footage at risk for ${eventDescription(job)}.\n\n${atRiskSentence(wait)}\n${incidentLinkLine(link)}\nAlert: ${job.alertId}\n`,
    sms: smsLine("Footage at risk, bring online: ", job.deviceid, ` event ${job.serialno}`, link),
    default: JSON.stringify({
      kind: "evidence",
      status: "at-risk",
      alertId: job.alertId,
      deviceid: job.deviceid,
      serialno: job.serialno,
      offlineSince: new Date(wait.offlineSinceMs).toISOString(),
      keptUntil: new Date(wait.keptUntilMs).toISOString(),
      retentionDays: wait.retentionDays,
    }),
    attributes: noticeAttributes(job, "at-risk"),
  };
}

/** An evidence notice's attributes: subscribers filter on `kind` and `evidence_status`. */
function noticeAttributes(job: EvidenceJob, status: "stored" | "unavailable" | "at-risk") {
  return stringAttributes({
    kind: "evidence",
    evidence_status: status,
    alert_id: job.alertId,
    account: job.account,
    rule: job.ruleId,
    severity: job.severity,
    deviceid: job.deviceid,
  });
}

function eventDescription(job: EvidenceJob): string {
  return `device ${deviceShown(job.deviceid)}, event ${job.serialno} (${job.eventtime})`;
}

function incidentLinkLine(link: string | undefined): string {
  return link === undefined
    ? ""
    : `\nOpen the incident (video, hashes, acknowledge): ${link}\nThe link is for your team: anyone who has it can open this alert until it expires.\n`;
}

/** Printable ASCII within SNS's subject limit; only the device id is cut. */
function subjectLine(head: string, deviceid: string, tail = ""): string {
  return fitLine({ head, name: toAscii(deviceid), tail }, SNS_MAX_SUBJECT_LENGTH);
}

/** One GSM-7 SMS segment, ending with the link if any; only the device id is cut, never the link. */
function smsLine(head: string, deviceid: string, tail: string, link?: string): string {
  const parts = { head, name: toGsm(deviceid), tail };
  if (link === undefined) return fitLine(parts, SMS_SEGMENT_LENGTH);
  return `${fitLine(parts, SMS_SEGMENT_LENGTH - 1 - link.length)} ${link}`;
}
