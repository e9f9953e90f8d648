import * as z from "zod";
import { deviceIdSchema } from "../devicecloud/schemas/common.js";

/**
 * How a stage runs the recorder audit (`recorderAudit` in infra/stage-config.ts, RECORDER_AUDIT
 * for the function), one schema for both, so the synth refuses what the function would.
 */
export const recorderAuditSettingsSchema = z.strictObject({
  // A divisor of 24, so that a period lies within one of the device cloud's days (one record map).
  everyHours: z
    .literal([1, 2, 3, 4, 6, 8, 12, 24], "must be 1, 2, 3, 4, 6, 8, 12 or 24")
    .default(24)
    .describe("The audited period: every device's driving is compared with its record map once per period."),
  // Each run goes on from the period's cursor within `callsPerRun`; a run with nothing owed reads one item.
  runEveryMinutes: z
    .number()
    .int()
    .min(5)
    .max(1440)
    .default(60)
    .describe("How often a run starts; a fleet too large for one run is spread over several."),
  gapMinutes: z
    .number()
    .int()
    .min(1)
    .max(720)
    .default(10)
    .describe('Minutes driven without video, at least, that make a "not recording" alert.'),
  callsPerRun: z
    .number()
    .int()
    .min(100)
    .max(100_000)
    .default(1_000)
    .describe("Device-cloud calls a run may make at most (the status list, record maps, GPS windows)."),
  offlineDays: z
    .number()
    .int()
    .min(1)
    .max(365)
    .default(3)
    .describe("The digest counts a device not heard from for more than this many days as offline."),
});
export type RecorderAuditSettings = z.output<typeof recorderAuditSettingsSchema>;
export const DEFAULT_RECORDER_AUDIT: RecorderAuditSettings = recorderAuditSettingsSchema.parse({});

/**
 * A device id pattern: an exact id, or a prefix ending in `*`. The device cloud has no device type
 * field, so a stage names its types by their ids (assumed: a fleet numbers its models by prefix).
 */
const deviceIdPatternSchema = z.string().min(1).pipe(deviceIdSchema);

/** How long cards keep footage, as a stage knows it (`cardRetention`; CARD_RETENTION for functions). */
export const cardRetentionSettingsSchema = z.strictObject({
  byDeviceType: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(100).describe("The device type's name."),
        deviceIds: z
          .array(deviceIdPatternSchema)
          .min(1)
          .describe("Its devices: exact ids, or prefixes ending in `*`."),
        days: z.number().int().min(1).max(365).describe("Days of footage its cards keep."),
      }),
    )
    .default([])
    .describe(
      "Per device type; the first entry whose pattern matches a device wins over the audit's estimate.",
    ),
  maxDays: z
    .number()
    .int()
    .min(1)
    .max(365)
    .optional()
    .describe("No estimate may exceed this (a card found holding more is trusted this far only)."),
});
export type CardRetentionSettings = z.output<typeof cardRetentionSettingsSchema>;

/** True when `deviceid` is the pattern, or starts with a pattern's prefix before its `*`. */
export function matchesDevicePattern(pattern: string, deviceid: string): boolean {
  return pattern.endsWith("*") ? deviceid.startsWith(pattern.slice(0, -1)) : deviceid === pattern;
}
