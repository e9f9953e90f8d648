import { awsJson } from "../aws-text.js";
import { scheduleEscalations } from "../escalation/schedule.js";
import { evidenceJobOf } from "../evidence/job.js";
import type { JobQueue, QueueMessage } from "../queue/ports.js";
import type { Route } from "../routing/route.js";
import { type SetAsideEntry, setAsideEntryOf } from "../setaside/entry.js";
import type { WebhookJob } from "../webhooks/job.js";
import { type DeliveryDependencies, deliverAlerts } from "./delivery.js";
import { type DeliveryLedger, RecordLedger } from "./delivery-ledger.js";
import { hasLinkSlot } from "./incident-link.js";
import type { AlertMessage } from "./message.js";
import { publishedBody } from "./published-body.js";
import type { AlertRecord } from "./record.js";

/**
 * Sends the jobs of each published record the ledger says still owes them (its evidence job when
 * its rule wants video, one webhook job per target of its route, its first escalation job), and
 * the evidence job of each stale record that owes one (a stale record has no route and no
 * escalation: it goes to no one, but its footage is collected before the card overwrites it), then
 * tells the ledger. A crash in between sends them again on the replay: each consumer is idempotent
 * by alert id (as SQS, delivering at least once, requires). A job the queue refuses for good is set
 * aside before the ledger is told: the other jobs, and the chunk, go on.
 */
export async function handOn(
  records: readonly AlertRecord[],
  deps: DeliveryDependencies,
  counts: { evidenceJobs: number },
  ledger: DeliveryLedger,
): Promise<void> {
  const owing = records.filter(
    (record) => (record.status === "published" || record.status === "stale") && ledger.owesJobs(record),
  );
  const withJobs = owing.filter(
    (record) => record.evidence || record.escalation || (record.route?.targets.length ?? 0) > 0,
  );
  if (withJobs.length === 0) return;
  const refused = [
    ...(await queueEvidence(withJobs, deps, counts)),
    ...(await queueWebhooks(withJobs, deps)),
    ...(await scheduleEscalations(withJobs, deps)),
  ];
  await deps.setAside.put(refused);
  await deps.checkpoint?.("jobs-queued");
  await ledger.handedOn(withJobs);
}

/** A job for one record (and target), to be set aside with it if the queue refuses it for good. */
interface OutgoingJob {
  record: AlertRecord;
  targetId?: string;
  message: QueueMessage;
}

async function sendJobs(
  queue: JobQueue,
  jobs: readonly OutgoingJob[],
  step: "evidence-job" | "webhook-job",
): Promise<SetAsideEntry[]> {
  if (jobs.length === 0) return [];
  const refused = await queue.send(jobs.map((job) => job.message));
  return refused.map(({ index, reason }) => {
    const { record, targetId } = jobs[index] as OutgoingJob;
    return setAsideEntryOf(record, step, reason, targetId);
  });
}

async function queueEvidence(
  records: readonly AlertRecord[],
  deps: DeliveryDependencies,
  counts: { evidenceJobs: number },
): Promise<SetAsideEntry[]> {
  const jobs = records.flatMap((record): OutgoingJob[] => {
    if (!record.evidence) return [];
    // The alert as published (a stale one as it would have been), for the evidence's report.
    const alert = publishedBody(record);
    const job = evidenceJobOf(record, record.evidence, {
      ...(alert && { alert }),
      // A stale alert's link is granted only when its summary lists it, and its evidence is told to no one.
      incidentLink: record.status === "published" && hasLinkSlot(record.message as AlertMessage),
    });
    return [{ record, message: { body: awsJson(job) } }];
  });
  const refused = await sendJobs(deps.evidenceQueue, jobs, "evidence-job");
  counts.evidenceJobs += jobs.length - refused.length;
  return refused;
}

/** One webhook job per target of each record's route. */
async function queueWebhooks(
  records: readonly AlertRecord[],
  deps: DeliveryDependencies,
): Promise<SetAsideEntry[]> {
  const wanting = records.filter((record) => (record.route?.targets.length ?? 0) > 0);
  if (wanting.length === 0) return [];
  if (deps.webhookQueue === undefined) {
    deps.logger.warn("alerts routed to webhook targets, but no webhook queue is set up", {
      alerts: wanting.length,
    });
    return [];
  }
  const jobs = wanting.flatMap((record) => {
    const alert = publishedBody(record);
    return (record.route as Route).targets.map((targetId): OutgoingJob => {
      const job: WebhookJob = {
        version: 1,
        alertId: record.alertId,
        account: record.account,
        targetId,
        alert: alert ?? {},
        incidentLink: hasLinkSlot(record.message as AlertMessage),
      };
      return { record, targetId, message: { body: awsJson(job) } };
    });
  });
  return sendJobs(deps.webhookQueue, jobs, "webhook-job");
}

/**
 * What became of an alert raised outside the poller: delivered (now, or before), or `busy`: another
 * delivery's live claim holds it, and either sends it or, if it crashed, leaves it to a delivery
 * after its claim's lease (RECORD_CLAIM_LEASE_MS), which the caller must arrange.
 */
export type RaisedDelivery = "delivered" | "busy";

/**
 * Delivers an alert raised outside the poller (an Offline confirmed, a recorder gap) while its
 * record says it is owed, then hands it on (evidence, escalation, webhooks): the poller's path for
 * one record, its ledger the record itself (claimed before it is published).
 */
export async function deliverRaisedAlert(
  record: AlertRecord | undefined,
  deps: DeliveryDependencies,
): Promise<RaisedDelivery> {
  const counts = { alertsPublished: 0, alertsFailed: 0, evidenceJobs: 0 };
  const ledger = new RecordLedger(deps.alerts, { now: deps.now, wallClock: deps.wallClock });
  const delivered = await deliverAlerts(record ? [record] : [], deps, counts, ledger);
  await handOn(delivered, deps, counts, ledger);
  return ledger.busy.length > 0 ? "busy" : "delivered";
}
