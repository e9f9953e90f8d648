import * as z from "zod";
import { shareLinkSecretEnv, tableNameEnv } from "../config/env-fields.js";

/**
 * The webhook queue's maxReceiveCount: with the retry delays doubling from 30 s, the eighth receive
 * comes about an hour after the first, long enough for a receiver's short outage.
 */
export const WEBHOOK_MAX_RECEIVES = 8;

/**
 * How long a webhook function's claim (a delivery, the notice of a disabled target) belongs to the
 * receive that made it, on the wall clock: longer than the function may run (60 s, its timeout)
 * with a margin, checked at synth (infra/leases.ts), so that a live receive's claim is never taken.
 */
export const WEBHOOK_CLAIM_LEASE_MS = 2 * 60_000;

/** What the webhook function reads from its environment (targets' URLs and secrets apart: secrets.ts). */
export const webhookEnvSchema = z.object({
  TABLE_NAME: tableNameEnv,
  // A failed job's visibility is extended there (exponential backoff).
  WEBHOOK_QUEUE_URL: z.url().describe("Its own queue, of webhook, Slack and Teams deliveries."),
  // SQS moves the others after the last receive.
  WEBHOOK_DLQ_URL: z.url().describe("Where a job no retry can deliver (a 4xx) goes at once."),
  OPS_TOPIC_ARN: z
    .string()
    .startsWith("arn:", "must be an ARN")
    .describe("The ops topic: a target answering 410 Gone is disabled, and ops are told there."),
  // A job for a target then fails, to the DLQ.
  GROUPS_FILE: z
    .string()
    .min(1)
    .optional()
    .describe("The groups file, for its `targets` (kind, driver's name or not); unset: no targets."),
  PUBLIC_BASE_URL: z.url().optional().describe("Where incident links start, for the link in each payload."),
  SHARE_LINK_SECRET: shareLinkSecretEnv,
  WEBHOOK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(30_000)
    .default(10_000)
    .describe("How long one POST may take."),
  // infra/webhooks.ts sets the queue's.
  WEBHOOK_MAX_RECEIVES: z.coerce
    .number()
    .int()
    .min(1)
    .default(WEBHOOK_MAX_RECEIVES)
    .describe("The webhook queue's maxReceiveCount: the last receive is logged as final."),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(30)
    .describe("The first retry's delay; each later one doubles it."),
  WEBHOOK_ALLOW_LOOPBACK_HTTP: z
    .enum(["0", "1"])
    .default("0")
    .describe(
      "1: plain http to 127.0.0.1 is allowed (the local mode's receivers); never set in a deployed stage.",
    ),
});
export type WebhookConfig = z.output<typeof webhookEnvSchema>;
