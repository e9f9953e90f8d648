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

const DECIMAL = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * A decimal number the spec writes as a string ("12.5"); a JSON number is accepted too. Converted
 * before `range` checks it, rather than as a union of the two: GPS histories bring these by the
 * thousand (four a point), and the union took twice the time a point.
 */
export function decimalString(range: z.ZodNumber) {
  return z.preprocess((value, context) => {
    if (typeof value !== "string") return value;
    if (DECIMAL.test(value)) return Number(value);
    context.issues.push({ code: "custom", message: "must be a decimal number", input: value });
    return z.NEVER;
  }, range);
}

export const latitudeSchema = z.number().min(-90).max(90);
export const longitudeSchema = z.number().min(-180).max(180);
