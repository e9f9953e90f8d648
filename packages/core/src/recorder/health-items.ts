import * as z from "zod";
import { DEVICE_AUDIT_STATUSES } from "./audit-device.js";

/** The account's audit cursor: `afterDevice` is the last device done in the period (ids sort as strings). */
export const recorderAuditCursorSchema = z.object({
  periodStartMs: z.number(),
  afterDevice: z.string().optional(),
  /** Every device of the period was done: the next run begins the next period. */
  done: z.boolean(),
  /** Counts the cursor's moves: a move is conditional on the version read (one run moves it). */
  version: z.number().int(),
});
export type RecorderAuditCursor = z.output<typeof recorderAuditCursorSchema>;

/** A device's latest audit, as kept in its item. */
export const deviceHealthAuditSchema = z.object({
  periodStartMs: z.number(),
  status: z.enum(DEVICE_AUDIT_STATUSES),
  lastHeardMs: z.number(),
  recordedMinutes: z.number().int(),
  /** Minutes driven without video in the period (its gaps together). */
  gapMinutes: z.number().int(),
  /** The vehicle as the device cloud named it then: what the digest lists. */
  vehicleid: z.string().optional(),
  auditedAtMs: z.number(),
});
export type DeviceHealthAudit = z.output<typeof deviceHealthAuditSchema>;

/** A device's item: its latest audit, its card's estimated retention, or both. */
export const deviceHealthSchema = deviceHealthAuditSchema.partial().extend({
  deviceid: z.string(),
  retentionDays: z.number().int().optional(),
  retentionAtLeast: z.boolean().optional(),
  retentionEstimatedAtMs: z.number().optional(),
});
export type DeviceHealth = z.output<typeof deviceHealthSchema>;
