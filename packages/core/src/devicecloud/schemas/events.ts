import * as z from "zod";
import { deviceIdSchema, isoTimestampSchema } from "./common.js";

/** The column names the event query's `columns` filter accepts, in the spec's order. */
export const EVENT_COLUMNS = [
  "serialno",
  "deviceid",
  "type",
  "eventtime",
  "eventtimeutc",
  "updatetime",
  "download",
  "try",
  "fenceid",
  "fencename",
  "radius",
  "centerx",
  "centery",
  "vehiclex",
  "vehicley",
  "downloadtype",
  "checkstatus",
  "memo",
  "loopdata",
  "appdevid",
] as const;
export type EventColumn = (typeof EVENT_COLUMNS)[number];

/**
 * A serial number as an integer of any size. Serial numbers are compared as bigint, never as a
 * float (which rounds above 2^53) or as a string (where "10" < "9").
 */
export const serialnoSchema = z
  .string()
  .regex(/^\d+$/, "must be a non-negative integer")
  .transform((digits) => BigInt(digits));
export type Serialno = bigint;

// The spec does not show the types of these fields, only that they may be null: kept as they come.
const untypedNullable = z.unknown().optional();

/**
 * An event as the service returns it with every column. `serialno`, `deviceid`, `eventtime` and
 * `appdevid` are required (an event is useless without them); the rest is optional and nullable
 * where the spec says so. `appdevid` may be outside the spec's table: it is kept.
 */
export const deviceEventSchema = z.looseObject({
  serialno: serialnoSchema,
  deviceid: deviceIdSchema,
  type: z.number().int().nullish(),
  eventtime: isoTimestampSchema,
  eventtimeutc: z.unknown().optional(),
  updatetime: isoTimestampSchema.nullish(),
  download: z.number().nullish(),
  try: z.number().nullish(),
  fenceid: untypedNullable,
  fencename: untypedNullable,
  radius: untypedNullable,
  centerx: untypedNullable,
  centery: untypedNullable,
  vehiclex: untypedNullable,
  vehicley: untypedNullable,
  downloadtype: z.unknown().optional(),
  checkstatus: untypedNullable,
  memo: untypedNullable,
  loopdata: z.string().nullish(),
  appdevid: z.number().int(),
});
export type DeviceEvent = z.output<typeof deviceEventSchema>;

/** The schema for events limited to some columns: exactly those fields are checked. */
export function eventColumnsSchema(columns: readonly EventColumn[]) {
  const mask = Object.fromEntries(columns.map((column) => [column, true])) as { [K in EventColumn]?: true };
  return deviceEventSchema.pick(mask);
}

/** A serial number filter: bigint, safe integer or a string of digits; sent as an exact JSON number. */
const serialFilterSchema = z.union([
  z.bigint().nonnegative(),
  z
    .number()
    .int()
    .nonnegative()
    .refine(Number.isSafeInteger, "must be a safe integer; pass a bigint")
    .transform((value) => BigInt(value)),
  z
    .string()
    .regex(/^\d+$/, "must be a non-negative integer")
    .transform((digits) => BigInt(digits)),
]);

/** `YYYY-MM-DDTHH:mm:ss` (the service's local time) or with a trailing `Z` (UTC); a Date is sent as UTC. */
const timeFilterSchema = z.union([
  z.iso.datetime({ local: true, precision: 0 }),
  z
    .date()
    .refine((date) => !Number.isNaN(date.getTime()), "must be a valid date")
    .transform((date) => `${date.toISOString().slice(0, 19)}Z`),
]);

/**
 * Every filter of the event query. Unknown names are refused: a misspelt filter would otherwise be
 * ignored by the service and return far more than asked. How filters combine, ordering and paging
 * are not shown in the spec.
 */
export const eventQueryFilterSchema = z.strictObject({
  /** Only the event with this serial number (a string in the spec). */
  serialno: serialFilterSchema.transform(String).optional(),
  /** serialno > value (exclusive). */
  afterSerialno: serialFilterSchema.optional(),
  /** serialno <= value (inclusive). */
  beforeSerialno: serialFilterSchema.optional(),
  appdevid: z.number().int().nonnegative().optional(),
  type: z.number().int().optional(),
  date: z.iso.date().optional(),
  /** On or after that day (inclusive). */
  afterDate: z.iso.date().optional(),
  /** On or before that day (inclusive). */
  beforeDate: z.iso.date().optional(),
  /** At or after (inclusive). */
  afterTime: timeFilterSchema.optional(),
  /** At or before (inclusive). */
  beforeTime: timeFilterSchema.optional(),
  afterUpdatetime: timeFilterSchema.optional(),
  beforeUpdatetime: timeFilterSchema.optional(),
  deviceid: deviceIdSchema.optional(),
  hasLoopdata: z.boolean().optional(),
  /** 0 = UDP events, 1 = download events, 2 = not-download events. */
  downloadtype: z.literal([0, 1, 2]).optional(),
  columns: z
    .array(z.enum(EVENT_COLUMNS))
    .min(1)
    .refine((columns) => new Set(columns).size === columns.length, "must not repeat a column")
    .optional(),
});
export type EventQueryFilter = z.input<typeof eventQueryFilterSchema>;
