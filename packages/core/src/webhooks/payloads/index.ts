import { type AlertBody, alertBodySchema } from "../../alerts/render/json.js";
import type { Target } from "../../routing/groups-schema.js";
import { slackMessage } from "./slack.js";
import { teamsMessage } from "./teams.js";
import { thinAlert } from "./thin.js";
import { webhookPayload } from "./webhook.js";

export { type SlackBlock, type SlackMessage, slackMessage } from "./slack.js";
export { type AdaptiveCard, type TeamsMessage, teamsMessage } from "./teams.js";
export { type PayloadOptions, type ThinAlert, thinAlert } from "./thin.js";
export { type WebhookPayload, webhookPayload, webhookPayloadSchema } from "./webhook.js";

/** The JSON body POSTed to a target of this kind for the alert (its body as published). */
export function payloadFor(target: Target, body: AlertBody, link: string | undefined): string {
  const alert = thinAlert(body, { link, includeDriverName: target.includeDriverName });
  switch (target.kind) {
    case "webhook":
      return JSON.stringify(webhookPayload(alert));
    case "slack":
      return JSON.stringify(slackMessage(alert));
    case "teams":
      return JSON.stringify(teamsMessage(alert));
  }
}

/** A job's alert as an AlertBody: the job carries it as a record, checked here. */
export function jobAlertBody(alert: Record<string, unknown>): AlertBody {
  return alertBodySchema.parse(alert);
}
