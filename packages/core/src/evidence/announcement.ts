import type { AlertMessage } from "../alerts/message.js";
import { stringAttributes } from "../alerts/render/attributes.js";
import { SNS_MAX_SUBJECT_LENGTH } from "../aws-limits.js";
import { SMS_SEGMENT_LENGTH, singleLine, toAscii, toGsm } from "../text/alphabet.js";
import { fitLine } from "../text/fit.js";
import type { EvidenceJob } from "./job.js";
import type { EvidenceManifest } from "./manifest.js";

/**
 * The "evidence ready" (or "unavailable") message to the alerts topic. Its `kind` attribute is
 * `evidence`, so that a subscriber (an insurer's queue) can filter for it, and alert subscribers
 * can filter it out. Subject and SMS name the device in the alphabets and within the limits of an
 * alert's, so that they reach the same subscribers as safely.
 */
export function evidenceAnnouncement(
  job: EvidenceJob,
  outcome:
    | { status: "stored"; bucket: string; manifestKey: string; manifest: EvidenceManifest }
    | { status: "unavailable" },
): AlertMessage {
  const attributes = stringAttributes({
    kind: "evidence",
    evidence_status: outcome.status,
    alert_id: job.alertId,
    account: job.account,
    rule: job.ruleId,
    severity: job.severity,
    deviceid: job.deviceid,
  });
  const what = `device ${singleLine(job.deviceid)}, event ${job.serialno} (${job.eventtime})`;
  const event = ` event ${job.serialno}`;
  if (outcome.status === "unavailable") {
    const text = `No video evidence could be fetched for ${what}: the device has not recorded or uploaded those minutes.`;
    return {
      subject: subjectLine("Evidence unavailable - ", job.deviceid),
      email: `${text}\n\nAlert: ${job.alertId}\n`,
      sms: smsLine("Evidence unavailable: ", job.deviceid, event),
      default: JSON.stringify({
        kind: "evidence",
        status: "unavailable",
        alertId: job.alertId,
        deviceid: job.deviceid,
        serialno: job.serialno,
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
  const claimPack =
    manifest.version === 3
      ? `\nClaim pack (a BagIt bag; open its report.html): s3://${outcome.bucket}/${bag}\nFor an insurer: fleet-alerts evidence pack ${job.alertId} --out claim.zip\n`
      : "";
  return {
    subject: subjectLine("Evidence ready - ", job.deviceid, event),
    email: `Video evidence is stored for ${what}.\n\nManifest: s3://${outcome.bucket}/${outcome.manifestKey}\nClips:\n${lines.join("\n")}\n${partial}${claimPack}\nAlert: ${job.alertId}\n`,
    sms: smsLine("Evidence ready: ", job.deviceid, `${event}, ${manifest.clips.length} clip(s)`),
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

/** Printable ASCII within SNS's subject limit; only the device id is cut. */
function subjectLine(head: string, deviceid: string, tail = ""): string {
  return fitLine({ head, name: toAscii(deviceid), tail }, SNS_MAX_SUBJECT_LENGTH);
}

/** One GSM-7 SMS segment; only the device id is cut. */
function smsLine(head: string, deviceid: string, tail: string): string {
  return fitLine({ head, name: toGsm(deviceid), tail }, SMS_SEGMENT_LENGTH);
}
