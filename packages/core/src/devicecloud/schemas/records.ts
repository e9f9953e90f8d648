import * as z from "zod";
import { deviceIdSchema, unixSecondsSchema } from "./common.js";

/** The spec's record types; the value set is firm, so another value is an invalid response. */
export const RECORD_TYPES = { normal: 0, gsensor: 1, pushButton: 2 } as const;

export const recordEntrySchema = z
  .looseObject({
    start: z.number().int().nonnegative(),
    end: z.number().int().nonnegative(),
    type: z.literal([RECORD_TYPES.normal, RECORD_TYPES.gsensor, RECORD_TYPES.pushButton]),
  })
  .refine((entry) => entry.end >= entry.start, { message: "must not be before start", path: ["end"] });
export type RecordEntry = z.output<typeof recordEntrySchema>;
export const recordListSchema = z.array(recordEntrySchema);

/** Values of the daily record map: 0 none, 1 normal, 2 alert, 3 GPS only. */
export const MINUTE_RECORD = { none: 0, normal: 1, alert: 2, gpsOnly: 3 } as const;
export const MINUTES_PER_DAY = 1440;

export const dailyRecordMapSchema = z
  .array(z.literal([MINUTE_RECORD.none, MINUTE_RECORD.normal, MINUTE_RECORD.alert, MINUTE_RECORD.gpsOnly]))
  .length(MINUTES_PER_DAY);
export type DailyRecordMap = z.output<typeof dailyRecordMapSchema>;

/** `date` is the UNIX time of the wanted day's start (a local midnight converted to UTC, for local days). */
export const dailyRecordMapRequestSchema = z.strictObject({
  deviceid: deviceIdSchema,
  date: unixSecondsSchema,
});
export type DailyRecordMapRequest = z.input<typeof dailyRecordMapRequestSchema>;
