import * as z from "zod";

export const deviceIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[^\p{Cc}]+$/u, "must not contain control characters");

/** UNIX time in whole seconds; a Date is accepted and converted (sub-second part dropped). */
export const unixSecondsSchema = z.union([
  z.number().int().nonnegative(),
  z
    .date()
    .refine((date) => !Number.isNaN(date.getTime()), "must be a valid date")
    .transform((date) => Math.floor(date.getTime() / 1000)),
]);

/** The spec's "ISO 8601 UTC timestamp with milliseconds"; an offset or missing milliseconds are tolerated. */
export const isoTimestampSchema = z.iso.datetime({ offset: true });

// 1e11 seconds is the year 5138 while 1e11 milliseconds is 1973: below it a value must be seconds.
const SECONDS_MILLIS_BOUNDARY = 1e11;

/**
 * The spec leaves the unit of `gpsdata.time` open (its samples have 13 digits, i.e. milliseconds).
 * Both units are accepted and normalized to epoch MILLISECONDS, the unit of `Date`.
 */
export function toEpochMillis(secondsOrMillis: number): number {
  return secondsOrMillis < SECONDS_MILLIS_BOUNDARY ? Math.round(secondsOrMillis * 1000) : secondsOrMillis;
}

/** A decimal number the spec writes as a string ("12.5"); a JSON number is accepted too. */
export function decimalString(range: z.ZodNumber) {
  return z
    .union([z.string().regex(/^\s*-?\d+(\.\d+)?\s*$/, "must be a decimal number"), z.number()])
    .transform(Number)
    .pipe(range);
}

export const latitudeSchema = z.number().min(-90).max(90);
export const longitudeSchema = z.number().min(-180).max(180);
