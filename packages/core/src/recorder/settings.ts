import * as z from "zod";
import { deviceIdSchema } from "../devicecloud/schemas/common.js";

/**
 * How a stage runs the recorder audit (`recorderAudit` in infra/stage-config.ts, RECORDER_AUDIT
 * for the function), one schema for both, so the synth refuses what the function would.
 */
export const recorderAuditSettingsSchema = z.strictObject({
  /**
   * The audited period: every device's driving is compared with its record map once per period.
   * A divisor of 24, so a period lies within one of the device cloud's days (one record map).
   */
  everyHours: z
    .number()
    .int()
    .refine((hours) => hours >= 1 && 24 % hours === 0, "must be 1, 2, 3, 4, 6, 8, 12 or 24")
    .default(24),
  /**
   * How often a run starts. Each run goes on from the period's cursor within `callsPerRun`, so a
   * fleet too large for one run is spread over several; a run with nothing owed reads one item.
   */
  runEveryMinutes: z.number().int().min(5).max(1440).default(60),
  /** Minutes driven without video, at least, that make a "not recording" alert. */
  gapMinutes: z.number().int().min(1).max(720).default(10),
  /** Device-cloud calls a run may make at most (the status list, record maps, GPS windows). */
  callsPerRun: z.number().int().min(100).max(100_000).default(1_000),
  /** The digest counts a device not heard from for more than this many days as offline. */
  offlineDays: z.number().int().min(1).max(365).default(3),
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
  /** Per device type: the first entry whose pattern matches a device wins over its estimate. */
  byDeviceType: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(100),
        deviceIds: z.array(deviceIdPatternSchema).min(1),
        days: z.number().int().min(1).max(365),
      }),
    )
    .default([]),
  /** No estimate may exceed this (a card found holding more is trusted this far only). */
  maxDays: z.number().int().min(1).max(365).optional(),
});
export type CardRetentionSettings = z.output<typeof cardRetentionSettingsSchema>;

/** True when `deviceid` is the pattern, or starts with a pattern's prefix before its `*`. */
export function matchesDevicePattern(pattern: string, deviceid: string): boolean {
  return pattern.endsWith("*") ? deviceid.startsWith(pattern.slice(0, -1)) : deviceid === pattern;
}
