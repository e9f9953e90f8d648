import type { AlertRecord } from "../alerts/record.js";
import { SQS_MAX_DELAY_SECONDS } from "../aws-limits.js";
import { awsJson } from "../aws-text.js";
import { type JobQueue, type QueueMessage, sendEvery } from "../queue/ports.js";
import { type SetAsideEntry, setAsideEntryOf } from "../setaside/entry.js";
import { type EscalationJob, escalationDueAtMs } from "./job.js";

/** A job to send, and how long SQS should hold it. */
export interface DelayedEscalation {
  job: EscalationJob;
  /** On the business clock (until a level is due), unless `onWallClock` (until a claim's lease ends). */
  waitMs: number;
  onWallClock?: boolean;
}

/**
 * Sends escalation jobs, each to arrive after its wait. SQS delays a message by 15 minutes at most:
 * a longer wait (an hour's escalation, say) is sent for the limit, and the job, arriving before it
 * is due, sends itself again for the rest (`runEscalation`), until it is.
 */
export async function queueEscalations(
  queue: JobQueue,
  delayed: readonly DelayedEscalation[],
): Promise<void> {
  if (delayed.length === 0) return;
  await sendEvery(queue, delayed.map(escalationMessage));
}

function escalationMessage({ job, waitMs, onWallClock }: DelayedEscalation): QueueMessage {
  return {
    body: awsJson(job),
    delaySeconds: Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, Math.ceil(waitMs / 1000))),
    ...(onWallClock && { delayOnWallClock: true }),
  };
}

/** The job, held until its level is due. */
export function untilDue(job: EscalationJob, nowMs: number): DelayedEscalation {
  return { job, waitMs: escalationDueAtMs(job) - nowMs };
}

type Escalating = AlertRecord & { escalation: NonNullable<AlertRecord["escalation"]> };

/**
 * Sends the level-1 job of each record that carries an escalation policy: the records the delivery
 * step hands on (delivery.ts), whose ledger then remembers it. A crash between sending and
 * remembering sends the job again on the replay: harmless, as each level is claimed once. A job the
 * queue refuses for good is returned, to be set aside.
 */
export async function scheduleEscalations(
  records: readonly AlertRecord[],
  deps: { escalationQueue?: JobQueue; now: () => number },
): Promise<SetAsideEntry[]> {
  const { escalationQueue } = deps;
  if (!escalationQueue) return [];
  const due = records.filter((record): record is Escalating => record.escalation !== undefined);
  if (due.length === 0) return [];
  const nowMs = deps.now();
  const jobs = due.map(
    (record): EscalationJob => ({
      version: 1,
      alertId: record.alertId,
      account: record.account,
      serialno: record.serialno.toString(),
      ruleId: record.ruleId,
      level: 1,
      afterSeconds: record.escalation.afterSeconds,
      firedAtMs: record.publishedAt ? Date.parse(record.publishedAt) : nowMs,
    }),
  );
  const refused = await escalationQueue.send(jobs.map((job) => escalationMessage(untilDue(job, nowMs))));
  return refused.map(({ index, reason }) =>
    setAsideEntryOf(due[index] as Escalating, "escalation-job", reason),
  );
}
