import type { AlertMessage } from "../alerts/message.js";
import type { EvidenceJob } from "./job.js";
import type { EvidenceManifest } from "./manifest.js";

/**
 * The "evidence ready" (or "unavailable") message to the alerts topic. Its `kind` attribute is
 * `evidence`, so that a subscriber (an insurer's queue) can filter for it, and alert subscribers
 * can filter it out.
 */
export function evidenceAnnouncement(
  job: EvidenceJob,
  outcome:
    | { status: "stored"; bucket: string; manifestKey: string; manifest: EvidenceManifest }
    | { status: "unavailable" },
): AlertMessage {
  const attributes = {
    kind: { DataType: "String" as const, StringValue: "evidence" },
    evidence_status: { DataType: "String" as const, StringValue: outcome.status },
    alert_id: { DataType: "String" as const, StringValue: job.alertId },
    account: { DataType: "String" as const, StringValue: job.account },
    rule: { DataType: "String" as const, StringValue: job.ruleId },
    severity: { DataType: "String" as const, StringValue: job.severity },
    deviceid: { DataType: "String" as const, StringValue: job.deviceid },
  };
  const what = `device ${job.deviceid}, event ${job.serialno} (${job.eventtime})`;
  if (outcome.status === "unavailable") {
    const text = `No video evidence could be fetched for ${what}: the device has not recorded or uploaded those minutes.`;
    return {
      subject: `Evidence unavailable - ${job.deviceid}`.slice(0, 99),
      email: `${text}\n\nAlert: ${job.alertId}\n`,
      sms: `Evidence unavailable: ${job.deviceid} event ${job.serialno}`.slice(0, 160),
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
  return {
    subject: `Evidence ready - ${job.deviceid} event ${job.serialno}`.slice(0, 99),
    email: `Video evidence is stored for ${what}.\n\nManifest: s3://${outcome.bucket}/${outcome.manifestKey}\nClips:\n${lines.join("\n")}\n${partial}\nAlert: ${job.alertId}\n`,
    sms: `Evidence ready: ${job.deviceid} event ${job.serialno}, ${manifest.clips.length} clip(s)`.slice(
      0,
      160,
    ),
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
