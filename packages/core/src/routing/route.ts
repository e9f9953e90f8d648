import * as z from "zod";

/**
 * Where one alert went, decided once by the routing step (route-alert.ts) just before it is
 * published, and kept on its record: a replay sends exactly this, the digest and the views read
 * it. Recipients are named by recipient ids (recipients.ts), never by address: the ids travel as
 * the `to` attribute of SNS messages, and each email or SMS subscription filters on its own id.
 */
export const routeSchema = z.object({
  /** Groups whose selectors match and that hear of it now. */
  groups: z.array(z.string()),
  /** Groups whose selectors match but that are in quiet hours: held, summarised at the window's end. */
  held: z.array(z.string()),
  /** Email recipients (ids) it is published to now: the union over `groups`. */
  email: z.array(z.string()),
  /** SMS recipients (ids) texted now: the union over `groups`, less those past a cap. */
  sms: z.array(z.string()),
  /** SMS recipients past a cap: not texted; counted for the hour's one summary SMS. */
  smsCapped: z.array(z.string()),
  /** Webhook, Slack and Teams targets (names in the groups file) it is sent to. */
  targets: z.array(z.string()),
});
export type Route = z.output<typeof routeSchema>;

/** The `to` attribute of the message an alert matched by no group goes out with: ops' emails. */
export const UNROUTED_RECIPIENT = "unrouted";
