import { fc, test } from "@fast-check/vitest";
import type { AlertBody } from "@fleet-alerts/core/alerts";
import { type SlackMessage, slackMessage, thinAlert } from "@fleet-alerts/core/webhooks";
import { describe, expect, it } from "vitest";
import { slackWebhookMessage } from "../../fixtures/webhooks/block-kit.js";
import { deviceNames, isGraphemePrefix, LINE_BREAK } from "../../support/untrusted-strings.js";
import { bodyFor } from "../alerts/fixtures.js";

// A short token: the run's output is watched for share-link tokens (test/support/token-free-output.ts).
const LINK = "https://alerts.example.com/i/tok";
const OUR_LINK = `<${LINK}|Open the incident page>`;

function slackFor(body: AlertBody, link: string | undefined = LINK): SlackMessage {
  return slackMessage(thinAlert(body, { link, includeDriverName: true }));
}

type TextObject = { type: string; text: string; verbatim?: boolean };

/** Every text object of the message's blocks. */
function textObjects(message: SlackMessage): TextObject[] {
  return message.blocks.flatMap((block): TextObject[] => {
    if (block.type === "header") return [block.text];
    if (block.type === "section") return [...(block.text ? [block.text] : []), ...(block.fields ?? [])];
    return block.elements;
  });
}

const sent = fc
  .tuple(deviceNames(), fc.constantFrom(LINK, undefined))
  .map(([names, link]) => ({ ...names, link }));

describe("Slack messages, whatever the device cloud calls its vehicle, driver and device", () => {
  test.prop([sent], { numRuns: 1000 })("validate against Slack's Block Kit shapes and limits", (names) => {
    const message = slackFor(bodyFor(names), names.link);
    expect(slackWebhookMessage.safeParse(message).error).toBeUndefined();
  });

  test.prop([sent], { numRuns: 1000 })(
    "hold no <…> but our own link, and no & but Slack's three escapes: no ping, mention or disguised link",
    (names) => {
      const message = slackFor(bodyFor(names), names.link);
      for (const text of [message.text, ...textObjects(message).map((object) => object.text)]) {
        expect(text.replaceAll(OUR_LINK, "")).not.toMatch(/[<>]/);
        expect(text).not.toMatch(/&(?!amp;|lt;|gt;)/);
      }
    },
  );

  test.prop([sent], { numRuns: 1000 })(
    "put each field's value on the line after its label, and on that line only",
    (names) => {
      const message = slackFor(bodyFor(names), names.link);
      const fields = message.blocks.flatMap((block) =>
        block.type === "section" ? (block.fields ?? []) : [],
      );
      expect(fields.length).toBeGreaterThan(0);
      for (const { text } of fields) {
        const [label, ...value] = text.split("\n");
        expect(label).toMatch(/^\*[A-Za-z ]+\*$/);
        expect(value).toHaveLength(1);
        expect(value.join("")).not.toMatch(LINE_BREAK);
      }
      for (const text of [
        message.text,
        ...textObjects(message)
          .filter((o) => o.type === "plain_text")
          .map((o) => o.text),
      ])
        expect(text).not.toMatch(LINE_BREAK);
    },
  );

  test.prop([sent], { numRuns: 1000 })(
    "have well-formed texts only (no half of an emoji), and every mrkdwn text taken verbatim",
    (names) => {
      const message = slackFor(bodyFor(names), names.link);
      expect(message.text.isWellFormed()).toBe(true);
      for (const object of textObjects(message)) {
        expect(object.text.isWellFormed()).toBe(true);
        if (object.type === "mrkdwn") expect(object.verbatim).toBe(true);
      }
    },
  );
});

describe("Slack messages: hostile names", () => {
  it.each([
    ["<!channel>", "&lt;!channel&gt;"],
    ["<@U123>", "&lt;@U123&gt;"],
    ["<https://evil.example|click>", "&lt;https://evil.example|click&gt;"],
  ])("show a vehicle named %s as text: no ping, mention or link", (vehicleid, escaped) => {
    const message = slackFor(bodyFor({ vehicleid: vehicleid, drivername: "Ada" }));
    const json = JSON.stringify(message);
    expect(json).not.toContain(vehicleid);
    expect(json).toContain(escaped);
    expect(textObjects(message)[0]?.text).toContain(escaped);
  });

  it("keep a name with CR and LF on one line", () => {
    const message = slackFor(bodyFor({ vehicleid: "TRK\r\n01\rX\nY", drivername: "Ada\r\nLovelace" }));
    const json = JSON.stringify(message);
    expect(json).toContain("*Vehicle*\\nTRK 01 X Y");
    expect(json).toContain("*Driver*\\nAda Lovelace");
    expect(message.text).not.toMatch(LINE_BREAK);
  });

  it("cut a name of 10,000 emoji between emoji", () => {
    const vehicleid = "🚚".repeat(5_000);
    const message = slackWebhookMessage.parse(slackFor(bodyFor({ vehicleid: vehicleid, drivername: "Ada" })));
    const header = textObjects(message as SlackMessage)[0]?.text ?? "";
    expect(header.length).toBeLessThanOrEqual(150);
    expect(header.isWellFormed()).toBe(true);
    expect(header).toMatch(/🚚…/);
    for (const { text } of textObjects(message as SlackMessage)) {
      expect(text.isWellFormed()).toBe(true);
      const shown = text.split("\n").at(-1) ?? "";
      if (shown.startsWith("🚚")) expect(isGraphemePrefix(shown.replace(/…$/, ""), vehicleid)).toBe(true);
    }
  });
});
