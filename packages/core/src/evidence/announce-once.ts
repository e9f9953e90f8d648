import type { AlertKey } from "../alerts/alert-item.js";
import type { AlertMessage } from "../alerts/message.js";
import type { AlertRecords } from "../alerts/ports.js";
import { SQS_MAX_DELAY_SECONDS } from "../aws-limits.js";
import { awsJson } from "../aws-text.js";
import type { NoticeClaimStore } from "../notices/claims.js";
import { type DeliveryOutcome, deliverOnce, noticeId } from "../notices/deliver-once.js";
import { sendEvery } from "../queue/ports.js";
import type { EvidenceDependencies } from "./collect.js";
import { alertOf, type EvidenceJob } from "./job.js";
import { evidenceRecipients, messagesTo } from "./notice-recipients.js";

/**
 * How long an evidence notice's claim ("evidence ready", "footage at risk") belongs to the delivery
 * that made it, on the wall clock: the evidence function may run 15 minutes (its timeout), plus a
 * margin. Checked against the timeout at synth (infra/leases.ts).
 */
export const EVIDENCE_CLAIM_LEASE_MS = 20 * 60_000;

/** A job that found another delivery's live claim comes back this much later to look again. */
const LOOK_AGAIN_SECONDS = Math.min(SQS_MAX_DELAY_SECONDS, EVIDENCE_CLAIM_LEASE_MS / 1000);

/** `nobody`: the alert has no one to tell (stale, requested, or held by every group). */
export type AnnouncementOutcome = DeliveryOutcome | "nobody";

/**
 * Sends the "evidence ready" (or "unavailable") message once per alert, to its email recipients,
 * whichever delivery of the job gets here: claimed on the alert record at the wall clock's time,
 * published, marked once the topic accepted it (deliverOnce). A crash between the claim and the
 * mark leaves the claim, and a delivery after its lease takes it over. A delivery that finds a live
 * claim must not end quietly: if its holder died, the SQS message it died with may be this very
 * one, delivered again, and nothing else would come back for the notice. So it sends the job back
 * to its queue, to look again after SQS's longest delay (real seconds, whatever the local mode's
 * clock): within the lease, at most twice.
 */
export async function announceOnce(
  job: EvidenceJob,
  message: AlertMessage,
  deps: EvidenceDependencies,
): Promise<AnnouncementOutcome> {
  const key = alertOf(job);
  const to = evidenceRecipients(await deps.alerts.get(key.account, key.serialno, key.ruleId));
  if (to.length === 0) return "nobody";
  const outcome = await deliverOnce(
    {
      id: noticeId("evidence", job.alertId),
      key,
      // The alert record keeps its own expiry.
      expiresAt: 0,
      leaseMs: EVIDENCE_CLAIM_LEASE_MS,
    },
    async () => messagesTo(to, message),
    { ...deps, claims: announcementClaims(deps.alerts) },
  );
  if (outcome === "busy")
    await sendEvery(deps.requeue, [
      { body: awsJson(job), delaySeconds: LOOK_AGAIN_SECONDS, delayOnWallClock: true },
    ]);
  return outcome;
}

/** The notice's claim as the alert record keeps it (AlertRecords' evidence-announcement fields). */
function announcementClaims(alerts: AlertRecords): NoticeClaimStore<AlertKey> {
  return {
    async read(key) {
      const record = await alerts.get(key.account, key.serialno, key.ruleId);
      return {
        claimedAtMs: record?.evidenceAnnouncementClaimedAtMs,
        sentAt: record?.evidenceAnnouncedAt,
        sentTo: record?.evidenceAnnouncedTo ?? new Set(),
      };
    },
    claim: (key, atMs) => alerts.claimEvidenceAnnouncement(key, atMs),
    takeOver: (key, claimedAtMs, atMs) => alerts.claimEvidenceAnnouncement(key, atMs, claimedAtMs),
    markRecipientsSent: (key, recipients) => alerts.markEvidenceAnnouncedTo(key, recipients),
    markSent: (key, nowMs) => alerts.markEvidenceAnnounced(key, nowMs),
  };
}
