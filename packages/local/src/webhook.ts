/**
 * `npm start -- --webhook URL`: the URL of the local webhook target and the `whsec_` secret its
 * deliveries are signed with, handed to the handlers as the target's TARGET_<ID>_URL and
 * TARGET_<ID>_SECRET (the webhook function reads those from its environment before SSM).
 */
import { randomBytes } from "node:crypto";
import { webhookSecretSchema } from "@fleet-alerts/core/webhooks";

/** Loopback hosts: plain http is allowed to them, locally, and to nothing else. */
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The URL, checked: https anywhere, or http to this machine (a receiver under test). */
export function localWebhookUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error("--webhook: not a URL");
  }
  const local = url.protocol === "http:" && LOOPBACK.has(url.hostname);
  if (url.protocol !== "https:" && !local) {
    throw new Error("--webhook: must be https://, or http:// to 127.0.0.1 or localhost");
  }
  if (url.username || url.password) throw new Error("--webhook: credentials in the URL are not allowed");
  return url.href;
}

/** A new secret as Standard Webhooks writes them: `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * WEBHOOK_SECRET when set (checked; an error never repeats it), else a new one, `generated`: the
 * caller prints that one, as the receiver needs it to verify.
 */
export function webhookSecret(env: Readonly<Record<string, string | undefined>>): {
  secret: string;
  generated: boolean;
} {
  const given = env.WEBHOOK_SECRET;
  if (given === undefined || given === "") return { secret: generateWebhookSecret(), generated: true };
  const parsed = webhookSecretSchema.safeParse(given);
  if (!parsed.success) {
    throw new Error(`WEBHOOK_SECRET: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  }
  return { secret: given, generated: false };
}

/** A target's URL and secret as the webhook function reads them (ID upper-cased, '-' as '_'). */
export function targetEnv(targetId: string, target: { url: string; secret: string }): Record<string, string> {
  const prefix = `TARGET_${targetId.toUpperCase().replaceAll("-", "_")}`;
  return { [`${prefix}_URL`]: target.url, [`${prefix}_SECRET`]: target.secret };
}
