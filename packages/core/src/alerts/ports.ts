import type { Route } from "../routing/route.js";
import type { AlertMessage } from "./message.js";
import type { AlertRecord, EvidenceWaiting, NewAlertRecord } from "./record.js";

/** Alert records: the idempotency key of one alert (account + serialno + rule), moved forward through their states. */
export interface AlertRecords {
  /** Writes the record unless one exists for the same account, serialno and rule; true if written. */
  record(alert: NewAlertRecord, nowMs: number): Promise<boolean>;
  /**
   * Writes the poller's new records of a chunk (batched, unconditional: the window lacked them);
   * returns them as stored.
   */
  recordChunk(alerts: readonly ChunkAlertRecord[]): Promise<AlertRecord[]>;
  get(account: string, serialno: bigint, ruleId: string): Promise<AlertRecord | undefined>;
  /** Every alert record of serial numbers in (after, through], in ascending serialno, then rule id. */
  inWindow(account: string, after: bigint, through: bigint): Promise<AlertRecord[]>;
  /**
   * Claims a pending record's publication for one delivery (`claim.token`) until `claim.untilMs`
   * (wall clock): `claimed` when it was free, its claim had run out or was this delivery's
   * already; `busy` when another delivery's claim holds it; `settled` when it is no longer pending.
   */
  claimPublication(alert: AlertRecord, claim: PublicationClaim): Promise<ClaimOutcome>;
  /**
   * Pending to published, with the route it went out by; false if it was no longer pending. No
   * message id when the route had no one to send to now (every matching group held it).
   */
  markPublished(
    alert: AlertRecord,
    messageId: string | undefined,
    nowMs: number,
    route: Route,
  ): Promise<boolean>;
  /**
   * Some of the route's recipients got the alert and some not yet (a transient failure): the route
   * and those recipients are kept, so that the retry sends to the rest only, by the same route.
   */
  markPartlySent(alert: AlertRecord, route: Route, sentTo: readonly string[]): Promise<void>;
  /**
   * To failed (a publish refused for good), from pending, or from published on a poller's record
   * (`chunkFrom`) that had not gone out; false if it was no longer so.
   */
  markFailed(alert: AlertRecord, failure: string): Promise<boolean>;
  /**
   * Its jobs (evidence, webhooks, first escalation) were sent: a replay does not send them again;
   * with evidence, its status becomes pending unless it has one already.
   */
  markHandedOn(alert: AlertRecord, nowMs: number): Promise<void>;
  /** How the evidence ended; throws if the record does not exist. */
  setEvidence(
    alert: Pick<AlertRecord, "account" | "serialno" | "ruleId">,
    outcome: { status: "stored" | "unavailable" | "failed"; keys?: string[]; error?: string },
  ): Promise<void>;
  /**
   * The evidence is parked until the vehicle comes online; false (nothing written) once the
   * evidence has settled, so that a park that loses a race with its own wake never hides the result.
   */
  setEvidenceWaiting(
    alert: Pick<AlertRecord, "account" | "serialno" | "ruleId">,
    waiting: EvidenceWaiting,
  ): Promise<boolean>;
  /**
   * Claims the "evidence ready" message at `atMs` on the wall clock (evidence/announce-once.ts): the
   * first claim, or, with `over`, a take-over of the claim made then, whose lease has run out. True
   * for one caller only, and never once the message is marked announced.
   */
  claimEvidenceAnnouncement(
    alert: Pick<AlertRecord, "account" | "serialno" | "ruleId">,
    atMs: number,
    over?: number,
  ): Promise<boolean>;
  /** Recipients whose "evidence ready" message the topic accepted: a take-over skips them. */
  markEvidenceAnnouncedTo(
    alert: Pick<AlertRecord, "account" | "serialno" | "ruleId">,
    recipients: readonly string[],
  ): Promise<void>;
  /** The "evidence ready" message went out to every recipient: it is never sent again. */
  markEvidenceAnnounced(
    alert: Pick<AlertRecord, "account" | "serialno" | "ruleId">,
    nowMs: number,
  ): Promise<void>;
}

/** One delivery's claim on a record's publication (delivery-ledger.ts `RecordLedger`); times are wall-clock ms. */
export interface PublicationClaim {
  token: string;
  nowMs: number;
  untilMs: number;
}

export type ClaimOutcome = "claimed" | "busy" | "settled";

/**
 * A record the poller writes for its chunk: `published` (it goes out now) or `stale`, made as of the
 * chunk's decision time, with the route it goes out by.
 */
export type ChunkAlertRecord = Omit<NewAlertRecord, "status"> & {
  status: "published" | "stale";
  chunkFrom: bigint;
  decidedAtMs: number;
  route?: Route;
};

export interface OutgoingAlert {
  alertId: string;
  message: AlertMessage;
  /**
   * Recipient ids (routing/recipients.ts): one message per recipient, each with its id as the `to`
   * attribute its subscription filters on. Absent: one message without `to` (the escalation topic).
   */
  to?: readonly string[];
}

export type PublishOutcome =
  | { alertId: string; ok: true; messageId: string }
  /**
   * `permanent`: the service refused an entry itself (a sender fault); retrying would not help.
   * `sentTo`: the recipients whose messages were accepted all the same.
   */
  | { alertId: string; ok: false; permanent: boolean; reason: string; sentTo?: string[] };

/** Where alerts go out (the alerts topic): one outcome per alert, never a throw for one refused entry. */
export interface AlertPublisher {
  publish(alerts: readonly OutgoingAlert[]): Promise<PublishOutcome[]>;
}
