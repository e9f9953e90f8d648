import { randomUUID } from "node:crypto";
import { noticeId } from "../notices/deliver-once.js";
import type { Target } from "../routing/groups-schema.js";
import type { OpsChannel } from "../setaside/ports.js";
import { WEBHOOK_CLAIM_LEASE_MS } from "./config.js";
import type { DeliveryKey, TargetState, WebhookDeliveries } from "./delivery-store.js";
import type { WebhookJob } from "./job.js";
import { jobAlertBody, payloadFor } from "./payloads/index.js";
import { signWebhook, webhookMessageId } from "./signature.js";

/** A target ready to be sent to: its URL checked for its kind, a webhook's signing key. */
export interface ResolvedTarget extends Target {
  id: string;
  url: URL;
  /** The `whsec_` secret's bytes: webhook targets only (Slack's and Teams' URLs are their secret). */
  key?: Buffer;
}

export interface WebhookDeliveryDeps {
  deliveries: WebhookDeliveries;
  /** The target of the groups file with its URL and secret; throws if it cannot be sent to now. */
  resolveTarget(targetId: string): Promise<ResolvedTarget>;
  /** The alert's incident link, when the function can derive it (SHARE_LINK_SECRET). */
  linkFor(alertId: string): string | undefined;
  /** The ops topic, told of a target disabled. */
  ops: OpsChannel;
  /** Moves a job that no retry can deliver to the dead-letter queue, with its reason. */
  deadLetter(job: WebhookJob, reason: string): Promise<void>;
  fetch: typeof fetch;
  /** What the request and the items say: the signature's timestamp, when delivered or disabled. */
  now(): number;
  /**
   * The real clock claims are taken, compared and taken over on (WEBHOOK_CLAIM_LEASE_MS): never a
   * business clock that runs fast.
   */
  wallClock(): number;
  timeoutMs: number;
}

export type DeliveryOutcome =
  | { outcome: "delivered"; httpStatus: number }
  | { outcome: "duplicate" }
  | { outcome: "target-disabled" }
  | { outcome: "gone" }
  | { outcome: "dead-lettered"; reason: string };

/** A delivery to try again later (SQS redelivers the job with a growing visibility timeout). */
export class RetryableDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RetryableDeliveryError";
  }
}

// Throttled or timed out at the receiver's side: worth the same message again later.
const RETRYABLE_4XX = new Set([408, 425, 429]);

/**
 * Delivers one job: at most one accepted POST per alert and target as the receiver sees it. The
 * delivery item is claimed before the POST and marked after a 2xx; a duplicate job finds it marked
 * and is dropped; a claim whose holder died is taken over after its lease. Every error message
 * names the target, never its URL.
 */
export async function deliverWebhook(job: WebhookJob, deps: WebhookDeliveryDeps): Promise<DeliveryOutcome> {
  const disabled = await deps.deliveries.targetState(job.targetId);
  if (disabled) {
    await tellDisabledOnce(job.targetId, disabled, deps);
    return { outcome: "target-disabled" };
  }
  const delivery: DeliveryKey = { targetId: job.targetId, alertId: job.alertId };
  const claimId = randomUUID();
  const claim = await deps.deliveries.claim(delivery, claimId, deps.wallClock(), WEBHOOK_CLAIM_LEASE_MS);
  if (claim === "delivered") return { outcome: "duplicate" };
  if (claim === "in-flight")
    throw new RetryableDeliveryError(`target ${job.targetId}: another receive of this job is sending it`);

  let status: number;
  try {
    status = await post(job, await deps.resolveTarget(job.targetId), deps);
  } catch (error) {
    await deps.deliveries.release(delivery, claimId);
    throw error;
  }
  if (status >= 200 && status < 300) {
    await deps.deliveries.markDelivered(delivery, claimId, deps.now(), status);
    return { outcome: "delivered", httpStatus: status };
  }
  await deps.deliveries.release(delivery, claimId);
  if (status === 410) {
    await deps.deliveries.disableTarget(job.targetId, "410 Gone", deps.now());
    // Whoever disabled it: a receive that died before telling ops left it to the next one.
    const state = await deps.deliveries.targetState(job.targetId);
    if (state) await tellDisabledOnce(job.targetId, state, deps);
    return { outcome: "gone" };
  }
  if (status >= 500 || RETRYABLE_4XX.has(status))
    throw new RetryableDeliveryError(`target ${job.targetId} answered ${status}`);
  // 3xx (redirects are not followed: the signed body must not go elsewhere) and other 4xx: the
  // receiver refuses this request, and the same one again would be refused too. The job goes to
  // the DLQ at once (its alarm tells ops), to be redriven once the target is fixed.
  const reason = `target ${job.targetId} answered ${status}`;
  await deps.deadLetter(job, reason);
  return { outcome: "dead-lettered", reason };
}

/**
 * Tells ops once that the target is disabled: claimed on its state item (wall clock), told, marked.
 * A receive that dies between the claim and the mark leaves the claim; the next receive of a job of
 * the target (SQS delivers the dead one's again) takes it over after WEBHOOK_CLAIM_LEASE_MS. One that
 * finds a live claim fails, to come back later: its job may be the only one left to see it told.
 * The one duplicate left: a death after the topic took the notice and before the mark; the notice's
 * `notice_id` names the disabling, so a subscriber can drop it.
 */
async function tellDisabledOnce(targetId: string, state: TargetState, deps: WebhookDeliveryDeps) {
  if (state.noticeToldAtMs !== undefined) return;
  const atMs = deps.wallClock();
  const claimed =
    state.noticeClaimedAtMs === undefined
      ? await deps.deliveries.claimDisabledNotice(targetId, atMs)
      : atMs >= state.noticeClaimedAtMs + WEBHOOK_CLAIM_LEASE_MS &&
        (await deps.deliveries.claimDisabledNotice(targetId, atMs, state.noticeClaimedAtMs));
  if (!claimed) {
    // Told meanwhile by the holder: done. Else it may still be telling, or have died doing it.
    if ((await deps.deliveries.targetState(targetId))?.noticeToldAtMs !== undefined) return;
    throw new RetryableDeliveryError(`target ${targetId}: another receive is telling ops it is disabled`);
  }
  await deps.ops.tell({
    id: noticeId("target-disabled", targetId, state.disabledAtMs),
    subject: `fleet-alerts: webhook target ${targetId} disabled`,
    text:
      `Webhook target ${targetId} answered 410 Gone and is disabled: its alerts are dropped until it is ` +
      `enabled again. Check the target's URL (secret TARGET_<ID>_URL), then re-enable it with ` +
      `\`fleet-alerts target enable ${targetId}\`.`,
  });
  await deps.deliveries.markDisabledNoticeTold(targetId, deps.now());
}

/** One POST; the HTTP status, or a RetryableDeliveryError for a timeout or a network failure. */
async function post(job: WebhookJob, target: ResolvedTarget, deps: WebhookDeliveryDeps): Promise<number> {
  const link = job.incidentLink ? deps.linkFor(job.alertId) : undefined;
  const body = payloadFor(target, jobAlertBody(job.alert), link);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "fleet-alerts-webhooks/1",
  };
  if (target.kind === "webhook") {
    if (!target.key) throw new Error(`target ${target.id}: a webhook target needs its whsec_ secret`);
    const id = webhookMessageId(job.alertId, job.targetId);
    Object.assign(headers, signWebhook({ id, body, atMs: deps.now() }, target.key));
  }
  try {
    const response = await deps.fetch(target.url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
    await response.body?.cancel(); // the answer's body is not read: only its status counts
    return response.status;
  } catch (error) {
    // Neither the URL nor the cause's text (it may hold the address): the kind of failure only.
    const kind =
      error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
        ? `did not answer within ${deps.timeoutMs} ms`
        : "could not be reached";
    throw new RetryableDeliveryError(`target ${job.targetId} ${kind}`);
  }
}
