import { parseTargetUrl, TargetUrlError } from "@fleet-alerts/core/webhooks";
import { describe, expect, it } from "vitest";

const SECRET_PATH = "T000/B000/s3cr3tT0k3n";
const refused = (kind: "webhook" | "slack" | "teams", url: string, options = {}) => {
  try {
    parseTargetUrl("depot-north", kind, url, options);
  } catch (error) {
    expect(error).toBeInstanceOf(TargetUrlError);
    return (error as Error).message;
  }
  throw new Error("accepted");
};

describe("target URLs", () => {
  it("accepts https for each kind: Slack's hooks, a Teams Workflows webhook, any webhook", () => {
    expect(parseTargetUrl("a", "slack", `https://hooks.slack.com/services/${SECRET_PATH}`).hostname).toBe(
      "hooks.slack.com",
    );
    const workflows =
      "https://prod-12.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=x";
    expect(parseTargetUrl("a", "teams", workflows).protocol).toBe("https:");
    expect(parseTargetUrl("a", "webhook", "https://hooks.example.com/fleet").pathname).toBe("/fleet");
  });

  it("refuses http, credentials, a Slack URL elsewhere; names the target, never the URL's path", () => {
    for (const message of [
      refused("webhook", `http://hooks.example.com/${SECRET_PATH}`),
      refused("webhook", `https://user:pw@hooks.example.com/${SECRET_PATH}`),
      refused("slack", `https://hooks.example.com/services/${SECRET_PATH}`),
      refused("webhook", `not a url ${SECRET_PATH}`),
    ]) {
      expect(message).toMatch(/^target depot-north: its URL \(TARGET_DEPOT_NORTH_URL\) /);
      expect(message).not.toContain(SECRET_PATH);
      expect(message).not.toContain("pw");
    }
  });

  it("refuses the retired Office 365 connector URLs, saying to use a Workflows webhook", () => {
    for (const url of [
      `https://outlook.office.com/webhook/${SECRET_PATH}`,
      `https://contoso.webhook.office.com/webhookb2/${SECRET_PATH}`,
    ]) {
      const message = refused("teams", url);
      expect(message).toContain("retired Office 365 connector");
      expect(message).toContain("Workflows webhook");
      expect(message).not.toContain(SECRET_PATH);
    }
  });

  it("takes plain http to 127.0.0.1 only when the local mode allows it", () => {
    expect(refused("webhook", "http://127.0.0.1:8080/hook")).toContain("must use https");
    expect(parseTargetUrl("a", "slack", "http://127.0.0.1:8080/hook", { allowLoopbackHttp: true }).port).toBe(
      "8080",
    );
    expect(refused("webhook", "http://10.0.0.1/hook", { allowLoopbackHttp: true })).toContain(
      "must use https",
    );
  });
});
