import { type AlertBody, renderJson } from "@fleet-alerts/core/alerts";
import { payloadFor, webhookPayloadSchema } from "@fleet-alerts/core/webhooks";
import { describe, expect, it } from "vitest";
import { adaptiveCard15, teamsWorkflowMessage } from "../../fixtures/webhooks/adaptive-card-1.5.js";
import { slackWebhookMessage } from "../../fixtures/webhooks/block-kit.js";
import { factsOf } from "../alerts/fixtures.js";

const body = JSON.parse(renderJson(factsOf())) as AlertBody;
const LINK = "https://alerts.example.com/i/AAAAAAAAAAAAAAAAAAAAAA";
const DRIVER = body.drivername as string;
const thin = { includeDriverName: false };

describe("webhook payload", () => {
  it("is the Standard Webhooks envelope with the alert's facts and link, and no driver", () => {
    const sent = JSON.parse(payloadFor({ kind: "webhook", ...thin }, body, LINK));
    const payload = webhookPayloadSchema.parse(sent);
    expect(payload).toMatchObject({
      type: "alert",
      timestamp: body.eventtime,
      data: {
        alertId: body.alertId,
        ruleId: "gsensor",
        severity: "critical",
        eventName: "GSensor",
        deviceid: body.deviceid,
        vehicleid: "TRK-01",
        speedKmh: 81.6,
        position: { lat: 52.52, lng: 13.405, source: "last-known" },
        link: LINK,
      },
    });
    expect(payload.data).not.toHaveProperty("drivername");
    expect(JSON.stringify(sent)).not.toContain(DRIVER);
  });

  it("names the driver only for a target that opts in, and has a null link without one", () => {
    const payload = webhookPayloadSchema.parse(
      JSON.parse(payloadFor({ kind: "webhook", includeDriverName: true }, body, undefined)),
    );
    expect(payload.data).toMatchObject({ drivername: DRIVER, link: null });
  });
});

describe("Slack payload", () => {
  it("validates against the Block Kit shapes, with a fallback text and the link", () => {
    const message = slackWebhookMessage.parse(JSON.parse(payloadFor({ kind: "slack", ...thin }, body, LINK)));
    expect(message.text).toBe(`[CRITICAL] GSensor: TRK-01 at ${body.eventtime} ${LINK}`);
    expect(message.blocks.map(({ type }) => type)).toEqual(["header", "section", "section", "context"]);
    expect(JSON.stringify(message)).toContain(`<${LINK}|Open the incident page>`);
    expect(JSON.stringify(message)).not.toContain(DRIVER);
  });

  it("escapes mrkdwn control characters in device texts, and cuts a long header to Slack's 150", () => {
    const awkward = { ...body, vehicleid: `<!channel> & ${"x".repeat(200)}` };
    const message = slackWebhookMessage.parse(
      JSON.parse(payloadFor({ kind: "slack", ...thin }, awkward, undefined)),
    );
    const fields = JSON.stringify(message.blocks[1]);
    expect(fields).toContain("&lt;!channel&gt; &amp;");
    expect(fields).not.toContain("<!channel>");
    expect(message.text).not.toContain("https://");
  });

  it("shows the driver to a target that opts in", () => {
    const message = payloadFor({ kind: "slack", includeDriverName: true }, body, LINK);
    expect(message).toContain(DRIVER);
  });
});

describe("Teams payload", () => {
  it("is a Workflows message holding an Adaptive Card 1.5 that validates, with an Open URL action", () => {
    const message = teamsWorkflowMessage.parse(
      JSON.parse(payloadFor({ kind: "teams", ...thin }, body, LINK)),
    );
    const card = adaptiveCard15.parse(message.attachments[0]?.content);
    expect(card.actions).toEqual([{ type: "Action.OpenUrl", title: "Open the incident page", url: LINK }]);
    expect(card.body?.[0]).toMatchObject({ type: "TextBlock", color: "Attention", wrap: true });
    expect(JSON.stringify(message)).not.toContain(DRIVER);
  });

  it("has no action without a link, and the driver only when opted in", () => {
    const card = teamsWorkflowMessage.parse(
      JSON.parse(payloadFor({ kind: "teams", includeDriverName: true }, body, undefined)),
    ).attachments[0]?.content;
    expect(card?.actions).toEqual([]);
    expect(JSON.stringify(card)).toContain(DRIVER);
  });
});
