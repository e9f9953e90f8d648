import * as z from "zod";
import { utcOffsetSchema } from "../devicecloud/playback-request.js";
import { cardRetentionSettingsSchema, recorderAuditSettingsSchema } from "../recorder/settings.js";
import { jsonEnv } from "./env.js";

/**
 * What the recorder-audit function reads besides the poller's environment (its accounts, stores,
 * topic and queues: packages/functions/src/recorder-audit-runtime.ts builds on the poller's runtime).
 */
export const recorderAuditEnvSchema = z.object({
  RECORDER_AUDIT: jsonEnv(recorderAuditSettingsSchema)
    .prefault("{}")
    .describe("The stage's `recorderAudit`, as JSON; unset: the defaults."),
  FLEET_UTC_OFFSET: utcOffsetSchema
    .prefault("+0000")
    .describe(
      "Where the device cloud's days begin (`+hhmm`), as the evidence function reads its record maps.",
    ),
  RECORDER_AUDIT_MARGIN_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(300)
    .default(30)
    .describe("A run stops beginning devices this long before its Lambda deadline."),
});
export type RecorderAuditConfig = z.output<typeof recorderAuditEnvSchema>;

/** CARD_RETENTION: the stage's `cardRetention`, for whoever asks a card's retention (CardRetention). */
export const cardRetentionEnvSchema = z.object({
  CARD_RETENTION: jsonEnv(cardRetentionSettingsSchema)
    .prefault("{}")
    .describe(
      "The stage's `cardRetention` (days per device type) as JSON, read before the recorder audit's estimates.",
    ),
});
