import { test } from "@fast-check/vitest";
import type { AlertBody } from "@fleet-alerts/core/alerts";
import { type TeamsMessage, teamsMessage, thinAlert } from "@fleet-alerts/core/webhooks";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { factList, headline } from "../../../packages/core/src/webhooks/payloads/thin.js";
import { adaptiveCard15, teamsWorkflowMessage } from "../../fixtures/webhooks/adaptive-card-1.5.js";
import { deviceNames, LINE_BREAK } from "../../support/untrusted-strings.js";
import { bodyFor } from "../alerts/fixtures.js";

// Short token: the run's output is watched for share-link tokens (test/support/token-free-output.ts).
const LINK = "https://alerts.example.com/i/tok";

// An independent Markdown renderer, with bare URLs and addresses made links as Teams' renderers do.
const md = new MarkdownIt({ linkify: true });

/** The text a reader sees of markdown-it's inline HTML, when it holds no element. */
function seen(html: string): string {
  return html.replace(
    /&(amp|lt|gt|quot);/g,
    (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"' })[name] ?? "",
  );
}

const thin = (body: AlertBody) => thinAlert(body, { link: LINK, includeDriverName: true });

/** Each Markdown text of the card (TextBlocks and fact values), with the plain text it stands for. */
function markdownTexts(message: TeamsMessage, body: AlertBody): { text: string; meant: string }[] {
  const card = message.attachments[0]?.content;
  const meant = [headline(thin(body)), ...factList(thin(body)).map(({ value }) => value)];
  const texts = (card?.body ?? []).flatMap((element) =>
    element.type === "TextBlock" ? [element.text] : element.facts.map(({ value }) => value),
  );
  expect(texts).toHaveLength(meant.length);
  return texts.map((text, index) => ({ text, meant: meant[index] ?? "" }));
}

const sent = deviceNames();

describe("Teams messages, whatever the device cloud calls its vehicle, driver and device", () => {
  test.prop([sent], { numRuns: 1000 })(
    "validate as a Workflows message holding an Adaptive Card 1.5",
    (names) => {
      const message = teamsMessage(thin(bodyFor(names)));
      expect(teamsWorkflowMessage.safeParse(message).error).toBeUndefined();
      expect(adaptiveCard15.safeParse(message.attachments[0]?.content).error).toBeUndefined();
    },
  );

  test.prop([sent], { numRuns: 1000 })(
    "render every text as plain text: no link, emphasis, code, image or any other element",
    (names) => {
      const body = bodyFor(names);
      for (const { text } of markdownTexts(teamsMessage(thin(body)), body)) {
        const html = md.renderInline(text);
        expect(html).not.toMatch(/<a |<em>|<strong>|<code>|<img|<s>/);
        expect(html).not.toMatch(/<[A-Za-z!/?]/);
      }
    },
  );

  test.prop([sent], { numRuns: 1000 })("show exactly the text meant", (names) => {
    const body = bodyFor(names);
    for (const { text, meant } of markdownTexts(teamsMessage(thin(body)), body))
      expect(seen(md.renderInline(text))).toBe(meant);
  });

  test.prop([sent], { numRuns: 1000 })("hold no line break in any text", (names) => {
    const body = bodyFor(names);
    for (const { text } of markdownTexts(teamsMessage(thin(body)), body))
      expect(text).not.toMatch(LINE_BREAK);
  });
});

describe("Teams messages: Markdown in a vehicle's name", () => {
  it.each([
    ["[Open](https://evil.example)", /<a /],
    ["**bold**", /<strong>/],
    ["_x_ and `code`", /<em>|<code>/],
    ["https://evil.example", /<a /],
    ["www.evil.example", /<a /],
    ["a@b.example", /<a /],
  ])("show %s as written, not as markup", (vehicleid, markup) => {
    const body = bodyFor({ vehicleid: vehicleid, drivername: "Ada" });
    const card = teamsMessage(thin(body)).attachments[0]?.content;
    const facts = card?.body.flatMap((element) => (element.type === "FactSet" ? element.facts : [])) ?? [];
    const vehicle = facts.find(({ title }) => title === "Vehicle")?.value ?? "";
    expect(md.renderInline(vehicle)).not.toMatch(markup);
    expect(seen(md.renderInline(vehicle))).toBe(vehicleid);
    const title = card?.body[0]?.type === "TextBlock" ? card.body[0].text : "";
    expect(md.renderInline(title)).not.toMatch(markup);
    expect(seen(md.renderInline(title))).toContain(vehicleid);
  });
});
