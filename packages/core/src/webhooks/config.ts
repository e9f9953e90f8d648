import * as z from "zod";

/**
 * The webhook queue's maxReceiveCount: with the retry delays doubling from 30 s, the eighth receive
 * comes about an hour after the first, long enough for a receiver's short outage.
 */
export const WEBHOOK_MAX_RECEIVES = 8;

/** What the webhook function reads from its environment (targets' URLs and secrets apart: secrets.ts). */
export const webhookEnvSchema = z.object({
  TABLE_NAME: z.string().min(1),
  /** Its own queue: a failed job's visibility is extended there (exponential backoff). */
  WEBHOOK_QUEUE_URL: z.url(),
  /** Where a job no retry can deliver (a 4xx) goes at once; SQS moves the others after the last receive. */
  WEBHOOK_DLQ_URL: z.url(),
  /** The ops topic: a target answering 410 Gone is disabled, and ops are told there. */
  OPS_TOPIC_ARN: z.string().startsWith("arn:", "must be an ARN"),
  /**
   * The groups file (its `targets`: each target's kind and whether it gets the driver's name). A
   * stage without one has no targets: a job for one then fails, to the DLQ.
   */
  GROUPS_FILE: z.string().min(1).optional(),
  /** The incident pages' base URL and the secret that derives each alert's link token. */
  PUBLIC_BASE_URL: z.url().optional(),
  SHARE_LINK_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** One POST's deadline. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(10_000),
  /** The queue's maxReceiveCount (infra/webhooks.ts): the last receive is logged as final. */
  WEBHOOK_MAX_RECEIVES: z.coerce.number().int().min(1).default(WEBHOOK_MAX_RECEIVES),
  /** The first retry's delay; each later one doubles it. */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().int().min(0).default(30),
  /** Plain http to 127.0.0.1 (the local mode's and the tests' receivers); never set in a deployed stage. */
  WEBHOOK_ALLOW_LOOPBACK_HTTP: z.enum(["0", "1"]).default("0"),
});
export type WebhookConfig = z.output<typeof webhookEnvSchema>;
