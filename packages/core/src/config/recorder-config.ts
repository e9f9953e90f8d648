import * as z from "zod";
import { utcOffsetSchema } from "../devicecloud/playback-request.js";
import {
  cardRetentionSettingsSchema,
  DEFAULT_RECORDER_AUDIT,
  recorderAuditSettingsSchema,
} from "../recorder/settings.js";
import { jsonEnv } from "./env.js";

/**
 * What the recorder-audit function reads besides the poller's environment (its accounts, stores,
 * topic and queues: packages/functions/src/recorder-audit-runtime.ts builds on the poller's runtime).
 */
export const recorderAuditEnvSchema = z.object({
  /** The stage's `recorderAudit`, as JSON; absent: the defaults. */
  RECORDER_AUDIT: jsonEnv(recorderAuditSettingsSchema).default(DEFAULT_RECORDER_AUDIT),
  /** Where the device cloud's days begin, as the evidence function reads its record maps. */
  FLEET_UTC_OFFSET: utcOffsetSchema.default(0),
  /** The run stops beginning devices this long before its Lambda deadline. */
  RECORDER_AUDIT_MARGIN_SECONDS: z.coerce.number().int().min(1).max(300).default(30),
});
export type RecorderAuditConfig = z.output<typeof recorderAuditEnvSchema>;

/** CARD_RETENTION: the stage's `cardRetention`, for whoever asks a card's retention (CardRetention). */
export const cardRetentionEnvSchema = z.object({
  CARD_RETENTION: jsonEnv(cardRetentionSettingsSchema).default({ byDeviceType: [] }),
});
