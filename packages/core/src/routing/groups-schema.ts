import * as z from "zod";
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
  kind: z.enum(["webhook", "slack", "teams"]),
  /** Payloads are thin: facts and the incident link; the driver's name only when this is set. */
  includeDriverName: z.boolean().default(false),
});
export type Target = z.output<typeof targetSchema>;

/** Which alerts a group hears of: every field narrows; an absent one selects everything. */
export const selectorSchema = z.strictObject({
  accounts: z.array(z.string().min(1)).min(1).optional(),
  /** Device ids, exactly as the device cloud sends them. */
  devices: z.array(z.string().min(1)).min(1).optional(),
  /** A regular expression the whole vehicle id must match (`^…$` is implied). */
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
    .optional(),
  rules: z.array(z.string().min(1)).min(1).optional(),
  minSeverity: severitySchema.default("info"),
});
export type Selector = z.output<typeof selectorSchema>;

/**
 * A daily window in the group's time zone (DST-correct: wall-clock times, so a window is an hour
 * shorter or longer on the nights the clocks change). `from` after `to` spans midnight.
 */
export const quietHoursSchema = z
  .strictObject({
    from: localTimeSchema,
    to: localTimeSchema,
    /** Alerts below this severity are held until the window ends; critical ones always go out. */
    holdBelow: z.enum(["warning", "critical"]).default("critical"),
  })
  .refine((window) => window.from !== window.to, "from and to must differ");
export type QuietHours = z.output<typeof quietHoursSchema>;

export const groupSchema = z.strictObject({
  name: routingNameSchema,
  email: z.array(z.email()).default([]),
  sms: z.array(e164Schema).default([]),
  /** Names of entries in the file's `targets`. */
  targets: z.array(routingNameSchema).default([]),
  select: selectorSchema.default({ minSeverity: "info" }),
  /** The fleet's time zone (FLEET_TIME_ZONE) when absent. */
  timeZone: timeZoneSchema.optional(),
  quietHours: quietHoursSchema.optional(),
  /** One email a day at this local time: the last 24 hours of the group's alerts. */
  digest: z.strictObject({ at: localTimeSchema }).optional(),
});
export type Group = z.output<typeof groupSchema>;

/** A device gone wrong must not send hundreds of texts: caps per clock hour (UTC). */
export const smsCapsSchema = z.strictObject({
  perRecipientPerHour: z.number().int().min(1).max(1000).default(10),
  perDevicePerHour: z.number().int().min(1).max(1000).default(5),
});
export type SmsCaps = z.output<typeof smsCapsSchema>;

export const groupsFileSchema = z.strictObject({
  groups: z.array(groupSchema).min(1).max(100),
  targets: z.record(routingNameSchema, targetSchema).default({}),
  smsCaps: smsCapsSchema.default({ perRecipientPerHour: 10, perDevicePerHour: 5 }),
});
export type GroupsFile = z.output<typeof groupsFileSchema>;

/** A stage without a groups file: no group selects anything, so every alert goes to `unrouted` (ops). */
export const NO_GROUPS: GroupsFile = {
  groups: [],
  targets: {},
  smsCaps: { perRecipientPerHour: 10, perDevicePerHour: 5 },
};
