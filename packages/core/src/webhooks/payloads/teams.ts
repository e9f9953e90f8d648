import { factList, headline, type ThinAlert } from "./thin.js";

/**
 * A message for a Teams Workflows webhook ("When a Teams webhook request is received"): one
 * attachment holding an Adaptive Card 1.5 (https://adaptivecards.io/schemas/adaptive-card.json),
 * the version Teams renders everywhere. The retired Office 365 connectors' MessageCard is not used.
 */
export interface TeamsMessage {
  type: "message";
  attachments: Array<{
    contentType: "application/vnd.microsoft.card.adaptive";
    contentUrl: null;
    content: AdaptiveCard;
  }>;
}
export interface AdaptiveCard {
  $schema: "http://adaptivecards.io/schemas/adaptive-card.json";
  type: "AdaptiveCard";
  version: "1.5";
  body: Array<
    | {
        type: "TextBlock";
        text: string;
        wrap: boolean;
        weight?: "Default" | "Lighter" | "Bolder";
        size?: "Default" | "Small" | "Medium" | "Large" | "ExtraLarge";
        color?: "Default" | "Dark" | "Light" | "Accent" | "Good" | "Warning" | "Attention";
      }
    | { type: "FactSet"; facts: Array<{ title: string; value: string }> }
  >;
  actions: Array<{ type: "Action.OpenUrl"; title: string; url: string }>;
}

const COLOR = { critical: "Attention", warning: "Warning", info: "Default" } as const;

/**
 * The ASCII punctuation with which Markdown (the subset Adaptive Cards render in TextBlocks and
 * facts, and the autolinks of the renderers behind it) starts a link, emphasis, a list, code, a
 * heading, a quote, HTML or an entity, and the `:`, `.` and `@` of a bare URL or address.
 */
const MARKDOWN_SYNTAX = /[\\`*_{}[\]()<>#+\-.!|~:@&]/g;

/**
 * A text for a TextBlock or a fact: every Markdown character backslash-escaped, as CommonMark
 * provides for any ASCII punctuation, so that a vehicle named `[Open](https://…)` shows as those
 * characters and not as a live link. Texts arrive on one line (thin.ts), so nothing starts a block.
 */
export function teamsText(text: string): string {
  return text.replace(MARKDOWN_SYNTAX, "\\$&");
}

export function teamsMessage(alert: ThinAlert): TeamsMessage {
  const content: AdaptiveCard = {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: "1.5",
    body: [
      {
        type: "TextBlock",
        text: teamsText(headline(alert)),
        wrap: true,
        weight: "Bolder",
        size: "Medium",
        color: COLOR[alert.severity],
      },
      {
        type: "FactSet",
        facts: factList(alert).map(({ label, value }) => ({ title: label, value: teamsText(value) })),
      },
    ],
    actions: alert.link ? [{ type: "Action.OpenUrl", title: "Open the incident page", url: alert.link }] : [],
  };
  return {
    type: "message",
    attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content }],
  };
}
