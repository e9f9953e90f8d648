import * as z from "zod";
import { severitySchema } from "../rules/schema.js";

/**
 * The items the routing step writes (route-alert.ts) and the notices function reads: quiet-hour
 * summaries, daily digests, and the hour's one summary SMS per recipient. Their keys are in
 * store/keys.ts; `expiresAt` is DynamoDB's TTL attribute (seconds since the epoch). The routing
 * step writes every field below; readers parse with these schemas (unknown fields are dropped).
 */

/** What every routing item says about its alert: enough for a summary line without the record. */
const alertFacts = {
  alertId: z.string(),
  account: z.string(),
  /** The event's serial number as digits (the alert record's key with account and rule). */
  serialno: z.string().regex(/^\d+$/),
  ruleId: z.string(),
  severity: severitySchema,
  deviceid: z.string(),
  /** The vehicle id as the device cloud sent it; absent when it sent none. */
  vehicleid: z.string().optional(),
  /** The event's time as the device cloud sent it. */
  eventtime: z.string(),
};

/**
 * An alert held by a group's quiet hours: pk keys.group(group), sk keys.held(windowEndIso, alertId).
 * Written before the alert is marked published; a summary after `windowEnd` lists them (claim
 * keys.quietSummary(windowEndIso) first, so it is sent once). TTL: 8 days after the window ends.
 */
export const heldItemSchema = z.object({
  pk: z.string().startsWith("GROUP#"),
  sk: z.string().startsWith("HELD#"),
  group: z.string(),
  ...alertFacts,
  /** The quiet window the alert is held by, as ISO instants (UTC). */
  windowStart: z.iso.datetime(),
  windowEnd: z.iso.datetime(),
  /** When the routing step held it (ISO, UTC). */
  heldAt: z.iso.datetime(),
  expiresAt: z.number().int(),
});
export type HeldItem = z.output<typeof heldItemSchema>;

/**
 * One alert routed to a group, delivered or held: pk keys.group(group), sk keys.routed(routedAt,
 * alertId). The digest's index: a Query of the group's partition between two instants lists the
 * alerts of a day; the digest reads the alert records (evidence, acknowledgement) by account,
 * serialno and ruleId. TTL: 8 days after routing.
 */
export const routedItemSchema = z.object({
  pk: z.string().startsWith("GROUP#"),
  sk: z.string().startsWith("ROUTED#"),
  group: z.string(),
  ...alertFacts,
  /** When it was routed (ISO, UTC): the instant in the sort key. */
  routedAt: z.iso.datetime(),
  /** True when the group held it (quiet hours) rather than hearing of it at once. */
  held: z.boolean(),
  expiresAt: z.number().int(),
});
export type RoutedItem = z.output<typeof routedItemSchema>;

/**
 * SMS counted in one UTC clock hour (`hour` is its start, ISO): per recipient at pk
 * keys.recipient(recipientId), sk keys.smsHour(hour); per device at pk keys.account(account), sk
 * keys.deviceSmsHour(hour, deviceid). `texted` and `capped` are string sets of alert ids (an alert
 * is added at most once: the routing step is idempotent per alert id); absent means empty, as
 * DynamoDB stores no empty set. The notices function sends, after the hour ends, one summary SMS
 * to each recipient whose item has `capped` alerts (its claim: `summarySentAt`, set conditionally).
 * TTL: 2 days after the hour.
 */
export const smsHourItemSchema = z.object({
  pk: z.string(),
  sk: z.string().startsWith("SMSHOUR#"),
  /** The start of the UTC hour, ISO (e.g. 2026-03-29T13:00:00.000Z). */
  hour: z.iso.datetime(),
  /** Set on a recipient's item. */
  recipientId: z.string().optional(),
  /** Set on a device's item. */
  account: z.string().optional(),
  deviceid: z.string().optional(),
  texted: z.set(z.string()).optional(),
  capped: z.set(z.string()).optional(),
  /** When the notices function claimed the hour's summary SMS (ISO); absent until then. */
  summarySentAt: z.iso.datetime().optional(),
  expiresAt: z.number().int(),
});
export type SmsHourItem = z.output<typeof smsHourItemSchema>;

const HOUR_MS = 3_600_000;

/** The `hour` of an SMS hour's item (keys.smsHour): the start of the UTC clock hour of `epochMs`, ISO. */
export function utcHourIso(epochMs: number): string {
  return new Date(Math.floor(epochMs / HOUR_MS) * HOUR_MS).toISOString();
}

/** Days the held and routed items outlive their window or routing: a digest reads 24 hours back. */
export const ROUTING_ITEM_TTL_DAYS = 8;
/** Days an SMS hour's item outlives the hour: its summary SMS goes out within minutes of it. */
export const SMS_HOUR_TTL_DAYS = 2;
