import * as z from "zod";
import { schemaKeyField } from "../config/schema-key.js";
import { timeZoneSchema } from "../config/time-zone.js";
import { severitySchema } from "../rules/schema.js";

/**
 * The groups file: who hears of which alerts, through which channels, and when. One file per stage
 * (infra/stage-config.ts `groupsFile`; the local mode's `config/groups.local.json`), checked with
 * the rules of every account by `validateRouting` (validate.ts) before anything is deployed.
 */

/** A group's or a target's name: lower-case letters, digits and '-', as SNS attributes carry it. */
export const routingNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "must be lower-case letters, digits or '-' (at most 40)");

/** A local time of day, "HH:MM" on the 24-hour clock. */
export const localTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day like "22:00"');

const e164Schema = z.string().regex(/^\+[1-9]\d{6,14}$/, "must be an E.164 number like +4915112345678");

/**
 * A machine channel. Its URL (and a webhook's `whsec_` signing secret) are secrets: never in this
 * file, but in SSM as `TARGET_<ID>_URL` and `TARGET_<ID>_SECRET` (ID upper-cased, '-' as '_').
 */
export const targetSchema = z.strictObject({
  kind: z
    .enum(["webhook", "slack", "teams"])
    .describe(
      "A signed HTTPS POST (Standard Webhooks), a Slack incoming webhook, or a Teams Workflows webhook.",
    ),
  // Payloads are thin: the alert's facts and its incident link.
  includeDriverName: z.boolean().default(false).describe("true: payloads carry the driver's name."),
});
export type Target = z.output<typeof targetSchema>;

/** Which alerts a group hears of: every field narrows; an absent one selects everything. */
export const selectorSchema = z.strictObject({
  accounts: z.array(z.string().min(1)).min(1).optional().describe("Account ids."),
  devices: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe("Device ids, exactly as the device cloud sends them."),
  vehiclePattern: z
    .string()
    .min(1)
    .refine((pattern) => {
      try {
        new RegExp(pattern);
        return true;
      } catch {
        return false;
      }
    }, "must be a valid regular expression")
    .optional()
    .describe("A regular expression the whole vehicle id must match (`^…$` is implied)."),
  rules: z.array(z.string().min(1)).min(1).optional().describe("Rule ids."),
  minSeverity: severitySchema.default("info").describe("The lowest severity the group hears of."),
});
export type Selector = z.output<typeof selectorSchema>;

/**
 * A daily window in the group's time zone (DST-correct: wall-clock times, so a window is an hour
 * shorter or longer on the nights the clocks change). `from` after `to` spans midnight.
 */
export const quietHoursSchema = z
  .strictObject({
    from: localTimeSchema.describe('The window\'s start, "HH:MM" local time.'),
    to: localTimeSchema.describe('The window\'s end, "HH:MM"; before `from`: the window spans midnight.'),
    holdBelow: z
      .enum(["warning", "critical"])
      .default("critical")
      .describe(
        "Alerts below this severity are held until the window ends, then sent as one summary; critical ones always go out.",
      ),
  })
  .refine((window) => window.from !== window.to, "from and to must differ");
export type QuietHours = z.output<typeof quietHoursSchema>;

export const groupSchema = z.strictObject({
  name: routingNameSchema.describe(
    "The group's name, by which its held alerts, its digests and error messages know it.",
  ),
  email: z.array(z.email()).default([]).describe("Addresses that get the group's alerts."),
  sms: z
    .array(e164Schema)
    .default([])
    .describe("E.164 numbers that get the group's alerts by SMS (capped by `smsCaps`)."),
  targets: z.array(routingNameSchema).default([]).describe("Names of entries in the file's `targets`."),
  select: selectorSchema
    .default({ minSeverity: "info" })
    .describe("Which alerts the group hears of: every field narrows; an absent one selects everything."),
  timeZone: timeZoneSchema
    .optional()
    .describe("The IANA zone of its quiet hours and digest; absent: the fleet's."),
  quietHours: quietHoursSchema
    .optional()
    .describe("A daily window (wall-clock, DST-correct) in which alerts below `holdBelow` are held."),
  digest: z
    .strictObject({ at: localTimeSchema.describe('The local time, "HH:MM".') })
    .optional()
    .describe("One email a day at `at`: the last 24 hours of the group's alerts."),
});
export type Group = z.output<typeof groupSchema>;

/** A device gone wrong must not send hundreds of texts: caps per clock hour (UTC). */
export const smsCapsSchema = z.strictObject({
  perRecipientPerHour: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(10)
    .describe("SMS one number gets in an hour, at most."),
  perDevicePerHour: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(5)
    .describe("SMS one device causes in an hour, at most."),
});
export type SmsCaps = z.output<typeof smsCapsSchema>;

export const groupsFileSchema = z.strictObject({
  ...schemaKeyField,
  groups: z
    .array(groupSchema)
    .min(1)
    .max(100)
    .describe("The recipient groups; an alert goes to every group that selects it."),
  targets: z
    .record(routingNameSchema, targetSchema)
    .default({})
    .describe(
      "Webhook, Slack and Teams targets by name. Their URLs are secrets, never in this file: TARGET_<NAME>_URL, and a webhook's signing secret TARGET_<NAME>_SECRET (the name upper-cased, '-' as '_').",
    ),
  smsCaps: smsCapsSchema
    .default({ perRecipientPerHour: 10, perDevicePerHour: 5 })
    .describe("Caps per UTC clock hour: past one, an alert is emailed but not texted."),
});
export type GroupsFile = z.output<typeof groupsFileSchema>;

/** A stage without a groups file: no group selects anything, so every alert goes to `unrouted` (ops). */
export const NO_GROUPS: GroupsFile = {
  groups: [],
  targets: {},
  smsCaps: { perRecipientPerHour: 10, perDevicePerHour: 5 },
};
