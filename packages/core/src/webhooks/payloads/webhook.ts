import * as z from "zod";
import { severitySchema } from "../../rules/schema.js";
import type { ThinAlert } from "./thin.js";

/**
 * The generic webhook's body, in the envelope Standard Webhooks recommends (`type`, `timestamp`,
 * `data`). Exported as a schema so that tests, and receivers written in TypeScript, parse it.
 */
export const webhookPayloadSchema = z.strictObject({
  type: z.literal("alert"),
  /** When the event happened (the delivery's own time is the `webhook-timestamp` header). */
  timestamp: z.string(),
  data: z.strictObject({
    alertId: z.string(),
    account: z.string(),
    ruleId: z.string(),
    severity: severitySchema,
    eventName: z.string(),
    eventtime: z.string(),
    deviceid: z.string(),
    serialno: z.string(),
    vehicleid: z.string().nullable(),
    position: z
      .strictObject({
        lat: z.number(),
        lng: z.number(),
        source: z.string(),
        fixtime: z.string(),
        mapUrl: z.string(),
      })
      .nullable(),
    speedKmh: z.number().nullable(),
    speedLimitKmh: z.number().nullable(),
    link: z.string().nullable(),
    drivername: z.string().nullable().optional(),
  }),
});
export type WebhookPayload = z.output<typeof webhookPayloadSchema>;

export function webhookPayload(alert: ThinAlert): WebhookPayload {
  return { type: "alert", timestamp: alert.eventtime, data: alert };
}
