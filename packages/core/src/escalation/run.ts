import { splitTrailingLink, withLinkFilledOrDropped } from "../alerts/incident-link.js";
import type { AlertPublisher } from "../alerts/ports.js";
import type { AlertRecord } from "../alerts/record.js";
import type { Observer } from "../observer.js";
import type { JobQueue } from "../queue/ports.js";
import { type EscalationJob, escalationDueAtMs } from "./job.js";
import { type EscalationStep, escalationMessage } from "./message.js";
import type { AlertKey, Escalations } from "./ports.js";
import { queueEscalations, untilDue } from "./schedule.js";
import { nextStep } from "./step.js";

/**
 * How long a claimed level belongs to the delivery that claimed it, on the wall clock. A claim still
 * unsent after this is taken to be a crashed delivery's, and the next delivery sends the level
 * instead. It must outlast the escalation function's timeout with a margin, so that a live claim is
 * never taken (checked at synth: infra/leases.ts).
 */
export const ESCALATION_CLAIM_LEASE_MS = 5 * 60_000;

/**
 * A delivery that finds another's claim live looks again this soon (real time), or at the lease's
 * end if that comes first: a live holder has sent by then (a publish takes milliseconds), and one
 * that died is taken over once the lease ends, a few dozen looks later at most.
 */
const LOOK_AGAIN_MS = 10_000;

const MAX_DECISION_ROUNDS = 4;

export interface EscalationDependencies {
  escalations: Escalations;
  /** The escalation topic: each level's people subscribe with a filter on `level`. */
  escalationPublisher: AlertPublisher;
  escalationQueue: JobQueue;
  /**
   * The alert's link token, derived as at publish time (share/token.ts `derivedShareToken`): its
   * grant was written before the alert went out, so the escalation only puts it back in the text.
   * Absent without SHARE_LINK_SECRET: the link is left out.
   */
  linkToken?: (alertId: string) => string;
  observer: Observer;
  /** The business clock: when a level is due, and how long the alert went unacknowledged. */
  now: () => number;
  /**
   * The real clock claims are taken, compared and taken over on: never the local mode's business
   * clock, which runs fast enough to end a lease while its delivery still works.
   */
  wallClock: () => number;
}

/** `waiting`: not due yet, or another delivery's claim is in flight: the job was sent again for later. */
export type EscalationOutcome = "waiting" | "escalated" | "cancelled" | "already-sent" | "no-alert";

/**
 * Handles an escalation job when SQS delivers it: unless the alert was acknowledged, its level is
 * claimed, sent to the escalation topic, marked sent, and the next level scheduled.
 *
 * Exactly once per level rests on the record: the claim (`escalatedLevels` < level, unacknowledged)
 * is one conditional write, so of two deliveries one sends. A delivery that crashes after its claim
 * (before the topic accepted the message, or before marking it sent) leaves the level claimed and
 * unsent; SQS delivers the job again, and once the claim's lease has run out (on the wall clock,
 * never the business clock `now`) that delivery takes the claim over (conditional on the claim time
 * it read, so only one does) and sends the level. Until then it sends itself again to look later
 * rather than send beside a delivery that may still be working. The one duplicate left: a crash after the topic accepted the message and before it was
 * marked sent (milliseconds) sends that level again; subscribers can deduplicate on `alert_id` and
 * `level`. Standard SNS topics have no deduplication, and email and SMS need one.
 */
export async function runEscalation(
  job: EscalationJob,
  deps: EscalationDependencies,
): Promise<EscalationOutcome> {
  const nowMs = deps.now();
  if (escalationDueAtMs(job) > nowMs) {
    await queueEscalations(deps.escalationQueue, [untilDue(job, nowMs)]);
    return "waiting";
  }
  const alert: AlertKey = { account: job.account, serialno: BigInt(job.serialno), ruleId: job.ruleId };
  // Each lost conditional write means another delivery moved the record: read it and decide again.
  // A few rounds settle any race; more would mean a record the writes cannot move, so stop loudly.
  for (let round = 1; round <= MAX_DECISION_ROUNDS; round++) {
    const record = await deps.escalations.get(alert);
    if (!record?.escalation || !record.message) return "no-alert";
    const wallMs = deps.wallClock();
    const step = nextStep(record, job.level, wallMs, ESCALATION_CLAIM_LEASE_MS);
    switch (step.kind) {
      case "sent":
        await scheduleNextLevel(record, job, deps);
        return "already-sent";
      case "cancel":
        deps.observer.observe({
          type: "escalation-cancelled",
          ...idsOf(record),
          level: job.level,
          reason: "acknowledged",
        });
        return "cancelled";
      case "wait":
        await queueEscalations(deps.escalationQueue, [
          { job, waitMs: Math.min(LOOK_AGAIN_MS, step.untilMs - wallMs), onWallClock: true },
        ]);
        return "waiting";
      case "claim":
        if (await deps.escalations.claimLevel(alert, job.level, wallMs)) return escalate(record, job, deps);
        break;
      case "take-over":
        if (await deps.escalations.takeOverLevel(alert, job.level, step.claimedAtMs, wallMs)) {
          return escalate(record, job, deps);
        }
        break;
    }
  }
  throw new Error(
    `escalation level ${job.level} of ${job.alertId}: the record kept changing; SQS will retry`,
  );
}

/** Sends the claimed level; throws if the topic did not take it, so that SQS delivers the job again. */
async function escalate(record: AlertRecord, job: EscalationJob, deps: EscalationDependencies) {
  const policy = record.escalation as NonNullable<AlertRecord["escalation"]>;
  const step: EscalationStep = {
    level: job.level,
    levels: policy.levels,
    unacknowledgedSeconds: job.level * policy.afterSeconds,
  };
  // The stored message holds a slot for its link, never the token (alerts/incident-link.ts).
  const stored = withLinkFilledOrDropped(
    record.message as NonNullable<AlertRecord["message"]>,
    deps.linkToken?.(record.alertId),
  );
  const message = escalationMessage(stored, step);
  const [outcome] = await deps.escalationPublisher.publish([{ alertId: record.alertId, message }]);
  if (!outcome?.ok) {
    throw new Error(
      `the escalation topic did not take level ${job.level} of ${record.alertId}: ${outcome?.reason}`,
    );
  }
  await deps.escalations.markLevelSent(record, job.level);
  // The SMS ends with the link whenever the message carries one (render/sms.ts).
  const { link } = splitTrailingLink(message.sms);
  deps.observer.observe({ type: "alert-escalated", ...idsOf(record), ...step, ...(link && { link }) });
  await scheduleNextLevel({ ...record, escalatedLevels: job.level, escalationsSent: job.level }, job, deps);
  return "escalated" as const;
}

/**
 * Sends the next level's job, unless this was the last level, the alert is acknowledged, or the next
 * level is claimed already. A delivery that finds its level sent does this again (the one that sent
 * it may have crashed before): the next level's claim makes a second job harmless.
 */
async function scheduleNextLevel(record: AlertRecord, job: EscalationJob, deps: EscalationDependencies) {
  const levels = record.escalation?.levels ?? 0;
  if (job.level >= levels || record.acknowledgement || record.escalatedLevels > job.level) return;
  await queueEscalations(deps.escalationQueue, [untilDue({ ...job, level: job.level + 1 }, deps.now())]);
}

function idsOf(record: AlertRecord) {
  return {
    account: record.account,
    alertId: record.alertId,
    serialno: record.serialno.toString(),
    rule: record.ruleId,
    deviceid: record.deviceid,
  };
}
