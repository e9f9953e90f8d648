import { createHash, createHmac } from "node:crypto";
import * as z from "zod";

// Standard Webhooks (https://www.standardwebhooks.com, spec v1): a receiver verifies
// `webhook-signature` as HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` with the
// secret's bytes, using that specification's libraries. Written here with node:crypto (a few
// lines); the tests verify with the `standardwebhooks` library receivers use.

const SECRET_PREFIX = "whsec_";
// The specification recommends 24 to 64 random bytes.
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;

/**
 * A target's secret, `whsec_<base64 of 24 to 64 bytes>`, as its key bytes. The message never
 * repeats the value: a secret must not reach a log through a validation error.
 */
export const webhookSecretSchema = z.string().transform((text, ctx) => {
  const encoded = text.startsWith(SECRET_PREFIX) ? text.slice(SECRET_PREFIX.length) : undefined;
  const key =
    encoded !== undefined && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded)
      ? Buffer.from(encoded, "base64")
      : undefined;
  if (!key || key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES) {
    ctx.addIssue({
      code: "custom",
      message: `must be "${SECRET_PREFIX}" and the base64 of ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} random bytes`,
    });
    return z.NEVER;
  }
  return key;
});

export interface WebhookHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * The headers of one delivery. `id` stays the same across retries of the same message, so a
 * receiver deduplicates on it; the timestamp is the attempt's, as receivers reject old ones.
 */
export function signWebhook(
  message: { id: string; body: string; atMs: number },
  key: Buffer,
): WebhookHeaders {
  const timestamp = Math.floor(message.atMs / 1000).toString();
  const signature = createHmac("sha256", key)
    .update(`${message.id}.${timestamp}.${message.body}`)
    .digest("base64");
  return { "webhook-id": message.id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` };
}

/**
 * The message id of an alert sent to one target: the same for every retry and every replay of that
 * alert to that target, different for each target (they deduplicate apart), and free of the
 * target's URL (which is a secret).
 */
export function webhookMessageId(alertId: string, targetId: string): string {
  const digest = createHash("sha256").update(`${alertId}\u0000${targetId}`).digest("base64url");
  return `msg_${digest.slice(0, 22)}`;
}
