import * as z from "zod";
import {
  DEFAULT_SHARE_LINK_HOURS,
  fromEnvString,
  linkBaseUrlSchema,
  shareLinkHoursSchema,
} from "./fields.js";
import { timeZoneSchema } from "./time-zone.js";

/** What the notices function reads from its environment (infra/notices.ts sets it). */
export const noticesEnvSchema = z
  .object({
    TABLE_NAME: z.string().min(1),
    ALERTS_TOPIC_ARN: z.string().startsWith("arn:", "must be an ARN"),
    /** The groups file (JSON), bundled with the function. */
    GROUPS_FILE: z.string().min(1),
    FLEET_TIME_ZONE: timeZoneSchema.default("UTC"),
    /** With the secret: summaries and digests link each alert's incident page. */
    PUBLIC_BASE_URL: linkBaseUrlSchema.optional(),
    SHARE_LINK_HOURS: fromEnvString(shareLinkHoursSchema).default(DEFAULT_SHARE_LINK_HOURS),
    SHARE_LINK_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  })
  .refine((env) => env.PUBLIC_BASE_URL === undefined || env.SHARE_LINK_SECRET !== undefined, {
    path: ["SHARE_LINK_SECRET"],
    message: "missing: PUBLIC_BASE_URL is set, and alert links need the secret",
  });
export type NoticesConfig = z.output<typeof noticesEnvSchema>;
