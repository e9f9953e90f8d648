import * as z from "zod";
import { alertLinkEnvFields, linkSecretRequired } from "./fields.js";
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
    ...alertLinkEnvFields,
  })
  .refine(...linkSecretRequired);
export type NoticesConfig = z.output<typeof noticesEnvSchema>;
