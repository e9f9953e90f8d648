import * as z from "zod";

/**
 * The routing step's items in the single table (keys in store/keys.ts), as the poller writes them
 * and the notices function reads them. Written by routing, read by notices: one schema each, here.
 */

/** An alert held by a group's quiet hours: `keys.group(name)` / `keys.held(windowEndIso, alertId)`. */
export const heldItemSchema = z.object({
  alertId: z.string(),
  account: z.string(),
  ruleId: z.string(),
  severity: z.string(),
  deviceid: z.string(),
  vehicle: z.string().optional(),
  /** The event's time as the device cloud sent it (ISO 8601). */
  eventtime: z.string(),
  /** When the quiet window it was held by ends: its summary goes out after that. */
  windowEndMs: z.number(),
});
export type HeldItem = z.output<typeof heldItemSchema>;

/**
 * One per alert routed to a group, delivered or held: `keys.group(name)` / `keys.routed(atIso,
 * alertId)`, by the time it was routed. The digest's index: account, serial number and rule name
 * the alert record.
 */
export const routedItemSchema = z.object({
  alertId: z.string(),
  account: z.string(),
  /** Digits: beyond 2^53 a number would lose precision. */
  serialno: z.string().regex(/^\d+$/),
  ruleId: z.string(),
  severity: z.string(),
  deviceid: z.string(),
  vehicle: z.string().optional(),
  eventtime: z.string(),
  /** Held by the group's quiet hours rather than delivered at once. */
  held: z.boolean(),
});
export type RoutedItem = z.output<typeof routedItemSchema>;

/**
 * An SMS recipient's texts of one UTC clock hour: `keys.recipient(rid)` / `keys.smsHour(hourIso)`.
 * String sets of alert ids (the document client reads them as Sets); an empty set is never stored,
 * so either may be absent. The summary attributes are the notices function's claim of the hour's
 * one summary SMS (notices/claims.ts).
 */
export const smsHourItemSchema = z.object({
  texted: z.set(z.string()).optional(),
  capped: z.set(z.string()).optional(),
  summaryClaimedAtMs: z.number().optional(),
  summarySentAt: z.string().optional(),
});
export type SmsHourItem = z.output<typeof smsHourItemSchema>;

const HOUR_MS = 3_600_000;

/** The `hourIso` of `keys.smsHour`: the start of the UTC clock hour of `epochMs`, as ISO 8601. */
export function utcHourIso(epochMs: number): string {
  return new Date(Math.floor(epochMs / HOUR_MS) * HOUR_MS).toISOString();
}
