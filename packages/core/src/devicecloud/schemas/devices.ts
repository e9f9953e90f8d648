import * as z from "zod";
import { Secret } from "../secret.js";
import {
  decimalString,
  deviceIdSchema,
  isoTimestampSchema,
  latitudeSchema,
  longitudeSchema,
  toEpochMillis,
  unixSecondsSchema,
} from "./common.js";

// Responses are `looseObject`s throughout: fields the spec does not list pass through untouched.

/** A point of the GPS history. `speed` and `dir` units are not shown in the spec. */
export const gpsPointSchema = z.looseObject({
  lat: decimalString(latitudeSchema),
  lng: decimalString(longitudeSchema),
  speed: decimalString(z.number().nonnegative()),
  dir: decimalString(z.number()),
  time: z.number().int().nonnegative(),
});
export type GpsPoint = z.output<typeof gpsPointSchema>;
export const gpsHistorySchema = z.array(gpsPointSchema);

/** `gpsdata`: `time` is normalized to epoch milliseconds whichever unit the service used. */
export const gpsDataSchema = z.looseObject({
  time: z.number().nonnegative().transform(toEpochMillis),
  lat: latitudeSchema,
  lng: longitudeSchema,
  speedInKmh: z.number().nonnegative(),
  trackingAngle: z.number(),
});
export type GpsData = z.output<typeof gpsDataSchema>;

const statusFields = {
  /** Meaning of the values not shown in the spec. */
  status: z.number().int(),
  nmea: z.string(),
  updatetime: isoTimestampSchema,
  // Absent when the device has no fix to report; a null is read as absent too.
  gpsdata: gpsDataSchema.nullish().transform((gps) => gps ?? undefined),
};

/**
 * The longest vehicle or driver name taken: far beyond any real one, and short enough that every
 * message and item carrying a name as sent stays within SNS's and DynamoDB's limits. A device whose
 * name is longer is left out of the all-devices list (its alerts go out without vehicle and driver).
 */
export const DEVICE_NAME_MAX = 16_384;

const identityFields = {
  vehicleid: z.string().max(DEVICE_NAME_MAX),
  drivername: z.string().max(DEVICE_NAME_MAX),
  /** Meaning not shown in the spec; presumably the device's channel count. */
  channel: z.number().int().nonnegative(),
};

export const onlineDeviceSchema = z.looseObject({ deviceid: deviceIdSchema, ...statusFields });
export type OnlineDevice = z.output<typeof onlineDeviceSchema>;
export const onlineDevicesSchema = z.array(onlineDeviceSchema);

export const fleetDeviceSchema = z.looseObject({
  deviceid: deviceIdSchema,
  ...statusFields,
  ...identityFields,
});
export type FleetDevice = z.output<typeof fleetDeviceSchema>;
export const allDevicesSchema = z.array(fleetDeviceSchema);

const singleDeviceStatusSchema = z.looseObject({ ...statusFields, ...identityFields });
export type DeviceStatus = z.output<typeof singleDeviceStatusSchema>;
/** The spec describes an array but shows a single object: both are accepted, one object results. */
export const deviceStatusSchema = z.union([
  singleDeviceStatusSchema,
  z.tuple([singleDeviceStatusSchema]).transform(([status]) => status),
]);

export const registeredDevicesSchema = z.array(deviceIdSchema);

const numberList = z
  .string()
  .regex(/^\s*(-?\d+(\.\d+)?(\s*,\s*-?\d+(\.\d+)?)*)?\s*$/, "must be a comma-separated list of numbers");

/** Device setting control. Meanings and allowed values are not shown; only the types are checked. */
export const deviceSettingsSchema = z.looseObject({
  g_sensor_en: z.number(),
  g_sensor_x: z.number(),
  g_sensor_y: z.number(),
  g_sensor_z: z.number(),
  preosd_plate: z.string(),
  sys_tz: z.number(),
  sys_dst: numberList,
  /** null in the spec's sample; its type otherwise is not shown, so anything is kept as is. */
  sys_spdparam: z.unknown(),
  sys_accoffsec: z.number(),
  sys_eisp: numberList,
  sys_edsp: numberList,
  sys_turn: numberList,
  sys_gguard: z.number(),
  net_hbsec: z.number(),
  net_server: z.string(),
  net_wfssid: z.string(),
  /** The Wi-Fi password: wrapped so that it never prints; `reveal()` gives the value. */
  net_wfpwd: z.string().transform((password) => new Secret(password)),
  net_2ndserver: z.string(),
  net_2ndhb: z.number(),
  net_2nden: z.number(),
  cam_rec: z.string(),
  cam_mirror: z.string(),
  enc_sres: z.string(),
  enc_sfps: z.number(),
  enc_sbit: z.number(),
});
export type DeviceSettings = z.output<typeof deviceSettingsSchema>;

export const deviceRequestSchema = z.strictObject({ deviceid: deviceIdSchema });
export type DeviceRequest = z.input<typeof deviceRequestSchema>;

/** Whether `start`/`end` are inclusive is not shown in the spec. */
export const gpsHistoryRequestSchema = z
  .strictObject({ deviceid: deviceIdSchema, start: unixSecondsSchema, end: unixSecondsSchema })
  .refine((range) => range.start <= range.end, { message: "must not be before start", path: ["end"] });
export type GpsHistoryRequest = z.input<typeof gpsHistoryRequestSchema>;
