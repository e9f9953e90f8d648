import { randomBytes } from "node:crypto";
import { signWebhook, webhookMessageId, webhookSecretSchema } from "@fleet-alerts/core/webhooks";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";

const secret = `whsec_${randomBytes(32).toString("base64")}`;
const key = webhookSecretSchema.parse(secret);
const body = JSON.stringify({ kind: "alert", alertId: "east:1001:gsensor", severity: "critical" });
const id = webhookMessageId("east:1001:gsensor", "depot-north");

// The receiver's side, as the specification's own library does it (standardwebhooks 1.1.1).
const receiver = new Webhook(secret);

describe("Standard Webhooks signatures", () => {
  it("verify with the specification's library, the body coming back as sent", () => {
    const headers = signWebhook({ id, body, atMs: Date.now() }, key);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(receiver.verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it("do not verify for another body, id, secret or an old timestamp", () => {
    const headers = signWebhook({ id, body, atMs: Date.now() }, key);
    const refused =
      (payload: string, sent: Record<string, string>, by = receiver) =>
      () =>
        by.verify(payload, sent);
    expect(refused(body.replace("critical", "warning"), { ...headers })).toThrow(WebhookVerificationError);
    expect(refused(body, { ...headers, "webhook-id": "msg_other" })).toThrow(WebhookVerificationError);
    expect(refused(body, { ...headers }, new Webhook(`whsec_${randomBytes(32).toString("base64")}`))).toThrow(
      WebhookVerificationError,
    );
    // Receivers refuse a timestamp more than five minutes away: a retry is signed anew.
    const stale = signWebhook({ id, body, atMs: Date.now() - 10 * 60_000 }, key);
    expect(refused(body, { ...stale })).toThrow(WebhookVerificationError);
  });

  it("give one message id per alert and target, the same on every retry", () => {
    expect(webhookMessageId("east:1001:gsensor", "depot-north")).toBe(id);
    expect(webhookMessageId("east:1001:gsensor", "depot-south")).not.toBe(id);
    expect(webhookMessageId("east:1002:gsensor", "depot-north")).not.toBe(id);
    expect(id).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
  });
});

describe("webhook secrets", () => {
  it("are whsec_ and the base64 of 24 to 64 bytes", () => {
    expect(key).toHaveLength(32);
    for (const bytes of [24, 64]) {
      expect(webhookSecretSchema.parse(`whsec_${randomBytes(bytes).toString("base64")}`)).toHaveLength(bytes);
    }
  });

  it("are refused otherwise, with a message that never repeats the value", () => {
    const short = `whsec_${randomBytes(16).toString("base64")}`;
    const long = `whsec_${randomBytes(65).toString("base64")}`;
    const unprefixed = randomBytes(32).toString("base64");
    for (const candidate of [short, long, unprefixed, "whsec_not base64!", "whsec_", ""]) {
      const result = webhookSecretSchema.safeParse(candidate);
      expect(result.success, "refused").toBe(false);
      const message = result.error?.issues.map((issue) => issue.message).join(" ") ?? "";
      expect(message).toContain('must be "whsec_" and the base64 of 24 to 64 random bytes');
      if (candidate.length > 6)
        expect(message.includes(candidate.slice(6)), "the value is not repeated").toBe(false);
    }
  });
});
