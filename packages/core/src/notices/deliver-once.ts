import type { AlertMessage } from "../alerts/message.js";
import type { AlertPublisher } from "../alerts/ports.js";
import type { ClaimKey, NoticeClaims } from "./claims.js";

/**
 * How long a claimed notice belongs to the run that claimed it. Longer than the notices function
 * may run (its timeout, infra/notices.ts), so that a live run's claim is never taken over.
 */
export const NOTICE_CLAIM_LEASE_MS = 5 * 60_000;

/** One message of a notice, to one recipient (its id is the message's `to` attribute). */
export interface NoticeMessage {
  to: string;
  message: AlertMessage;
}

/** `busy`: another run holds a live claim (it sends, or the next run takes over after the lease). */
export type DeliveryOutcome = "sent" | "already-sent" | "busy";

export interface DeliveryDependencies {
  claims: NoticeClaims;
  /** The alerts topic; each message's `to` attribute picks its one subscription. */
  publisher: AlertPublisher;
  now: () => number;
}

/**
 * Sends a notice at most once per recipient: claim (or take over a claim past its lease), build the
 * messages from what is stored now, publish those not yet accepted, mark the recipients accepted,
 * then the notice sent. Messages are built after the claim, so what a crashed run had read is read
 * again. A recipient whose message the topic refused leaves the notice unsent: this throws, and a
 * run after the lease sends that recipient only. The one duplicate left: a crash between the
 * topic's acceptance and the mark (milliseconds) sends those messages again after the lease.
 */
export async function deliverOnce(
  key: ClaimKey,
  expiresAt: number,
  build: () => Promise<NoticeMessage[]>,
  deps: DeliveryDependencies,
): Promise<DeliveryOutcome> {
  const state = await deps.claims.read(key);
  if (state.sentAt !== undefined) return "already-sent";
  const nowMs = deps.now();
  const claimed =
    state.claimedAtMs === undefined
      ? await deps.claims.claim(key, nowMs, expiresAt)
      : nowMs >= state.claimedAtMs + NOTICE_CLAIM_LEASE_MS &&
        (await deps.claims.takeOver(key, state.claimedAtMs, nowMs));
  if (!claimed) return "busy";

  const messages = (await build()).filter(({ to }) => !state.sentTo.has(to));
  const outcomes = await deps.publisher.publish(
    messages.map(({ to, message }) => ({ alertId: to, message })),
  );
  await deps.claims.markRecipientsSent(
    key,
    outcomes.filter((outcome) => outcome.ok).map((outcome) => outcome.alertId),
  );
  const refused = outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.reason]));
  if (refused.length > 0) {
    throw new Error(
      `${key.sk}: the topic refused ${refused.length} of ${messages.length} messages (${refused[0]}); retried after the lease`,
    );
  }
  await deps.claims.markSent(key, deps.now());
  return "sent";
}
