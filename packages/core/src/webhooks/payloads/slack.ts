import { graphemeSegments } from "../../text/graphemes.js";
import { factList, headline, type ThinAlert } from "./thin.js";

// Slack's limits (https://api.slack.com/reference/block-kit/blocks): a header's text 150
// characters, a section's fields 10 of 2000 each, a section's text 3000.
const HEADER_MAX = 150;
const FIELDS_MAX = 10;
const FIELD_MAX = 2000;

export interface SlackMessage {
  /** The fallback: notifications and clients that cannot show blocks show this. */
  text: string;
  blocks: SlackBlock[];
}
type TextObject =
  | { type: "plain_text"; text: string; emoji?: boolean }
  | { type: "mrkdwn"; text: string; verbatim?: boolean };
export type SlackBlock =
  | { type: "header"; text: { type: "plain_text"; text: string; emoji?: boolean } }
  | { type: "section"; text?: TextObject; fields?: TextObject[] }
  | { type: "context"; elements: TextObject[] };

/**
 * A text for Slack, escaped as Slack asks of every text it parses (the fallback and plain text too):
 * `&`, `<` and `>` as entities, so that no `<!channel>`, `<@U…>` or `<https://…|…>` of a device's text
 * becomes a ping, a mention or a disguised link, and cut to `max` characters as escaped, between
 * graphemes (an escape or an emoji is never split). Texts arrive on one line (thin.ts).
 */
export function slackText(text: string, max = Number.POSITIVE_INFINITY): string {
  const escaped = escapeSlack(text);
  if (escaped.length <= max) return escaped;
  let cut = "";
  for (const grapheme of graphemeSegments(text)) {
    const next = escapeSlack(grapheme);
    if (cut.length + next.length + 1 > max) break;
    cut += next;
  }
  return `${cut}…`;
}

function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** mrkdwn that Slack takes as written: no automatic links or mentions made of its words. */
function mrkdwn(text: string): TextObject {
  return { type: "mrkdwn", text, verbatim: true };
}

/**
 * An incoming-webhook message: Block Kit blocks and the fallback `text`. The link is a mrkdwn link
 * in a section, not a button: a button in a message of an app without interactivity shows a
 * warning when clicked. The link is ours (PUBLIC_BASE_URL and a token): the only `<…>` in a message.
 */
export function slackMessage(alert: ThinAlert): SlackMessage {
  const title = headline(alert);
  const blocks: SlackBlock[] = [
    { type: "header", text: { type: "plain_text", text: slackText(title, HEADER_MAX), emoji: false } },
    {
      type: "section",
      fields: factList(alert)
        .slice(0, FIELDS_MAX)
        .map(({ label, value }) => mrkdwn(`*${label}*\n${slackText(value, FIELD_MAX - label.length - 3)}`)),
    },
  ];
  if (alert.link) blocks.push({ type: "section", text: mrkdwn(`<${alert.link}|Open the incident page>`) });
  blocks.push({ type: "context", elements: [mrkdwn(`Alert ${slackText(alert.alertId)}`)] });
  return { text: alert.link ? `${slackText(title)} ${alert.link}` : slackText(title), blocks };
}
