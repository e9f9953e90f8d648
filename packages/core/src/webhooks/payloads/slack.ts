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
type TextObject = { type: "plain_text"; text: string; emoji?: boolean } | { type: "mrkdwn"; text: string };
export type SlackBlock =
  | { type: "header"; text: { type: "plain_text"; text: string; emoji?: boolean } }
  | { type: "section"; text?: TextObject; fields?: TextObject[] }
  | { type: "context"; elements: TextObject[] };

/** Slack's mrkdwn treats `&`, `<` and `>` as control characters: device texts are escaped. */
function escaped(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * An incoming-webhook message: Block Kit blocks and the fallback `text`. The link is a mrkdwn link
 * in a section, not a button: a button in a message of an app without interactivity shows a
 * warning when clicked.
 */
export function slackMessage(alert: ThinAlert): SlackMessage {
  const title = headline(alert);
  const blocks: SlackBlock[] = [
    { type: "header", text: { type: "plain_text", text: cut(title, HEADER_MAX), emoji: false } },
    {
      type: "section",
      fields: factList(alert)
        .slice(0, FIELDS_MAX)
        .map(({ label, value }) => ({
          type: "mrkdwn",
          text: cut(`*${label}*\n${escaped(value)}`, FIELD_MAX),
        })),
    },
  ];
  if (alert.link)
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: `<${alert.link}|Open the incident page>` },
    });
  blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: `Alert ${escaped(alert.alertId)}` }] });
  return { text: alert.link ? `${title} ${alert.link}` : title, blocks };
}
