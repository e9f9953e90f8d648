import type { AlertMessage } from "../alerts/message.js";
import type { AlertPublisher } from "../alerts/ports.js";
import { stringAttributes } from "../alerts/render/attributes.js";
import type { ClaimKey, NoticeClaimStore } from "./claims.js";

/**
 * How long a claimed notice belongs to the run that claimed it, on the wall clock: longer than the
 * notices function and the poller (whose stale summaries claim the same way) may run, with a
 * margin (their timeouts, checked at synth: infra/leases.ts), so that a live run's claim is never
 * taken over.
 */
export const NOTICE_CLAIM_LEASE_MS = 5 * 60_000;

/** One message of a notice, to one recipient (its id is the message's `to` attribute). */
export interface NoticeMessage {
  to: string;
  message: AlertMessage;
}

/** `busy`: another run holds a live claim (it sends, or the next run takes over after the lease). */
export type DeliveryOutcome = "sent" | "already-sent" | "busy";

export interface DeliveryDependencies<Key = ClaimKey> {
  claims: NoticeClaimStore<Key>;
  /** The alerts topic; each message's `to` attribute picks its one subscription. */
  publisher: AlertPublisher;
  /** The business clock: what the notices say, and when they were marked sent. */
  now: () => number;
  /**
   * The real clock claims are taken, compared and taken over on. Never the local mode's business
   * clock, which runs 60 to 300 times faster: a lease measured on it would end while its run lives.
   */
  wallClock: () => number;
}

/** Which notice is sent once: where its claim is kept, and what its messages carry. */
export interface OnceNotice<Key = ClaimKey> {
  /**
   * The notice's stable id, the `notice_id` attribute of each of its messages: the same on a
   * message sent again after a take-over, so that a subscriber can drop the repeat. Ids of
   * configuration and alerts only (noticeId), never an address, a name or a token.
   */
  id: string;
  key: Key;
  /** TTL (seconds) of a claim item the claim creates. */
  expiresAt: number;
  /** The claim's lease on the wall clock: longer than the claiming function may run. */
  leaseMs: number;
}

/** A notice's id from its kind and what names it (a group and a window's end, an alert id...). */
export function noticeId(kind: string, ...names: readonly (string | number)[]): string {
  return [kind, ...names].join(":");
}

/**
 * Sends a notice at most once per recipient: claim (or take over a claim past its lease), build the
 * messages from what is stored now, publish those not yet accepted, mark the recipients accepted,
 * then the notice sent. Messages are built after the claim, so what a crashed run had read is read
 * again. A recipient whose message the topic refused leaves the notice unsent: this throws, and a
 * run after the lease sends that recipient only. The one duplicate left: a crash between the
 * topic's acceptance and the mark (milliseconds) sends those messages again after the lease, with
 * the same `notice_id`. Claims are timed on `wallClock`, never on the business clock `now`.
 */
export async function deliverOnce<Key>(
  notice: OnceNotice<Key>,
  build: () => Promise<NoticeMessage[]>,
  deps: DeliveryDependencies<Key>,
): Promise<DeliveryOutcome> {
  const { key } = notice;
  const state = await deps.claims.read(key);
  if (state.sentAt !== undefined) return "already-sent";
  const atMs = deps.wallClock();
  const claimed =
    state.claimedAtMs === undefined
      ? await deps.claims.claim(key, atMs, notice.expiresAt)
      : atMs >= state.claimedAtMs + notice.leaseMs &&
        (await deps.claims.takeOver(key, state.claimedAtMs, atMs));
  if (!claimed) return "busy";

  const noticeAttribute = stringAttributes({ notice_id: notice.id });
  const messages = (await build()).filter(({ to }) => !state.sentTo.has(to));
  const outcomes = await deps.publisher.publish(
    messages.map(({ to, message }) => ({
      alertId: to,
      message: { ...message, attributes: { ...message.attributes, ...noticeAttribute } },
    })),
  );
  await deps.claims.markRecipientsSent(
    key,
    outcomes.filter((outcome) => outcome.ok).map((outcome) => outcome.alertId),
  );
  const refused = outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.reason]));
  if (refused.length > 0) {
    throw new Error(
      `${notice.id}: the topic refused ${refused.length} of ${messages.length} messages (${refused[0]}); retried after the lease`,
    );
  }
  await deps.claims.markSent(key, deps.now());
  return "sent";
}
