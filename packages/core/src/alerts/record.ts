import * as z from "zod";
import type { AlertMessage } from "./message.js";

// An alert record: what was decided about one event and rule, and how its delivery went.

export const ALERT_STATUSES = ["pending", "published", "stale", "failed"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

const evidenceRequestSchema = z.object({
  channels: z.array(z.number().int()),
  secondsBefore: z.number(),
  secondsAfter: z.number(),
});
export type EvidenceRequest = z.output<typeof evidenceRequestSchema>;

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
  status: z.enum(ALERT_STATUSES),
  /** The rendered message, kept so that a replay publishes exactly what was decided. */
  message: z
    .string()
    .transform((json) => JSON.parse(json) as AlertMessage)
    .optional(),
  evidence: evidenceRequestSchema.optional(),
  /** The event as received, as JSON (serialno as digits): evidence manifests quote it. */
  event: z.string().optional(),
  evidenceQueuedAt: z.string().optional(),
  evidenceStatus: z.enum(["pending", "stored", "unavailable", "failed"]).optional(),
  evidenceKeys: z.array(z.string()).optional(),
  evidenceError: z.string().optional(),
  snsMessageId: z.string().optional(),
  publishedAt: z.string().optional(),
  failure: z.string().optional(),
  createdAt: z.string(),
});
export type AlertRecord = z.output<typeof alertItemSchema>;
export type NewAlertRecord = Omit<
  AlertRecord,
  | "alertId"
  | "evidenceQueuedAt"
  | "evidenceStatus"
  | "evidenceKeys"
  | "evidenceError"
  | "snsMessageId"
  | "publishedAt"
  | "failure"
  | "createdAt"
>;

export function alertIdOf(account: string, serialno: bigint, ruleId: string): string {
  return `${account}:${serialno}:${ruleId}`;
}
