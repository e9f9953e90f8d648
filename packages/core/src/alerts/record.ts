import * as z from "zod";
import { footageRequestSchema } from "../evidence/request-custody.js";
import { routeSchema } from "../routing/route.js";
import type { AlertMessage } from "./message.js";

// An alert record: what was decided about one event and rule, and how its delivery went.

export const ALERT_STATUSES = ["pending", "published", "stale", "failed", "requested"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

const evidenceRequestSchema = z.object({
  channels: z.array(z.number().int()),
  secondsBefore: z.number(),
  secondsAfter: z.number(),
});
export type EvidenceRequest = z.output<typeof evidenceRequestSchema>;

/** A rule's escalation policy as the alert fired with it: later rule changes do not reach it. */
const escalationPolicySchema = z.object({ afterSeconds: z.number().int(), levels: z.number().int() });

/**
 * Evidence parked until its vehicle comes online (evidence/waiting.ts): offline since when, and
 * until when the footage is waited for (the card's retention, or the stage's maximum when unknown).
 */
export const evidenceWaitingSchema = z.object({
  offlineSinceMs: z.number(),
  keptUntilMs: z.number(),
  retentionDays: z.number().nullable(),
});
export type EvidenceWaiting = z.output<typeof evidenceWaitingSchema>;

/** Who acknowledged the alert, when, and through which share link (none: from the CLI, say). */
export const acknowledgementSchema = z.object({
  by: z.string(),
  note: z.string().optional(),
  tokenId: z.string().optional(),
  atMs: z.number(),
});
export type Acknowledgement = z.output<typeof acknowledgementSchema>;

/** An alert record as stored: the idempotency key of one alert (account + serialno + rule). */
export const alertItemSchema = z.object({
  account: z.string(),
  serialno: z.string().transform((digits) => BigInt(digits)),
  ruleId: z.string(),
  alertId: z.string(),
  deviceid: z.string(),
  appdevid: z.number(),
  eventtime: z.string(),
  severity: z.string(),
  /**
   * `pending`: to be published (records the Offline confirmation writes). `published`: sent, or, on
   * a record with `chunkFrom`, being sent: the poller writes it so, once, before it publishes, and
   * its chunk's publication item says whether it went out (delivery-ledger.ts). `requested`:
   * footage asked for by hand (`request` says who and why), sent to no one.
   */
  status: z.enum(ALERT_STATUSES),
  /** The cursor the poller's chunk started from, naming its publication item (publication-store.ts). */
  chunkFrom: z
    .string()
    .transform((digits) => BigInt(digits))
    .optional(),
  /** The rendered message, kept so that a replay publishes exactly what was decided. */
  message: z
    .string()
    .transform((json) => JSON.parse(json) as AlertMessage)
    .optional(),
  evidence: evidenceRequestSchema.optional(),
  /** Footage asked for by hand for a moment no alert was raised for (evidence/footage-request.ts). */
  request: footageRequestSchema.optional(),
  /** The event as received, as JSON (serialno as digits): evidence manifests quote it. */
  event: z.string().optional(),
  /** `waiting`: parked until the vehicle comes online (`evidenceWaiting` says since when, until when). */
  evidenceStatus: z.enum(["pending", "waiting", "stored", "unavailable", "failed"]).optional(),
  evidenceWaiting: evidenceWaitingSchema.optional(),
  evidenceKeys: z.array(z.string()).optional(),
  evidenceError: z.string().optional(),
  /** The first message's id (an alert goes out as one message per recipient). */
  snsMessageId: z.string().optional(),
  /** Where it goes (routing/route.ts), kept from the first attempt on: a retry sends by the same route. */
  route: routeSchema.optional(),
  /** Recipients (ids) whose message was accepted while others' failed: the retry skips them. */
  sentTo: z.set(z.string()).optional(),
  /**
   * When its jobs (evidence, webhooks, first escalation) were sent, on a record without
   * `chunkFrom` (the publication item keeps it for the others).
   */
  handedOnAt: z.string().optional(),
  publishedAt: z.string().optional(),
  failure: z.string().optional(),
  createdAt: z.string(),
  escalation: escalationPolicySchema.optional(),
  /** The highest escalation level claimed (its message is being sent, or was). */
  escalatedLevels: z.number().int().default(0),
  /** The highest escalation level whose message the topic accepted. */
  escalationsSent: z.number().int().default(0),
  /** When the level `escalatedLevels` was claimed: a claim older than its lease may be taken over. */
  escalationClaimedAtMs: z.number().optional(),
  /** The first acknowledgement; later ones are not recorded. */
  acknowledgement: acknowledgementSchema.optional(),
  /**
   * When the "evidence ready" message was claimed, on the wall clock: a claim unannounced past its
   * lease may be taken over (evidence/announce-once.ts).
   */
  evidenceAnnouncementClaimedAtMs: z.number().optional(),
  /** Its recipients whose message the topic accepted, while others' was refused. */
  evidenceAnnouncedTo: z.set(z.string()).optional(),
  /** When it went out to every recipient (records of before leased claims: when it was claimed). */
  evidenceAnnouncedAt: z.string().optional(),
});
export type AlertRecord = z.output<typeof alertItemSchema>;
export type NewAlertRecord = Omit<
  AlertRecord,
  | "alertId"
  | "chunkFrom"
  | "evidenceStatus"
  | "evidenceWaiting"
  | "evidenceKeys"
  | "evidenceError"
  | "snsMessageId"
  | "route"
  | "sentTo"
  | "handedOnAt"
  | "publishedAt"
  | "failure"
  | "createdAt"
  | "escalatedLevels"
  | "escalationsSent"
  | "escalationClaimedAtMs"
  | "acknowledgement"
  | "evidenceAnnouncementClaimedAtMs"
  | "evidenceAnnouncedTo"
  | "evidenceAnnouncedAt"
>;

/** In ascending serialno, then rule id: the order of the table's sort keys. */
export function tableOrder(a: AlertRecord, b: AlertRecord): number {
  if (a.serialno !== b.serialno) return a.serialno < b.serialno ? -1 : 1;
  return a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0;
}

export function alertIdOf(account: string, serialno: bigint, ruleId: string): string {
  return `${account}:${serialno}:${ruleId}`;
}
