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

export function teamsMessage(alert: ThinAlert): TeamsMessage {
  const content: AdaptiveCard = {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: "1.5",
    body: [
      {
        type: "TextBlock",
        text: headline(alert),
        wrap: true,
        weight: "Bolder",
        size: "Medium",
        color: COLOR[alert.severity],
      },
      { type: "FactSet", facts: factList(alert).map(({ label, value }) => ({ title: label, value })) },
    ],
    actions: alert.link ? [{ type: "Action.OpenUrl", title: "Open the incident page", url: alert.link }] : [],
  };
  return {
    type: "message",
    attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content }],
  };
}
