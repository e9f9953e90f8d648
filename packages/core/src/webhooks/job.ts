import * as z from "zod";

/**
 * One alert for one webhook, Slack or Teams target: the webhook queue's message, sent by the
 * poller after the alert is published (delivery.ts) and consumed by the webhook function. It
 * carries no URL, secret or link token: the function reads the target's URL and secret from SSM
 * and derives the incident link from the alert id, as the escalate function does.
 */
export const webhookJobSchema = z.object({
  version: z.literal(1),
  alertId: z.string().min(1),
  account: z.string().min(1),
  /** The target's name in the groups file. */
  targetId: z.string().min(1),
  /** The alert's JSON body as published (an AlertBody); the payloads are made thin from it. */
  alert: z.record(z.string(), z.unknown()),
  /** Whether the alert's messages carry an incident link (so the payload gets one too). */
  incidentLink: z.boolean(),
});
export type WebhookJob = z.output<typeof webhookJobSchema>;
