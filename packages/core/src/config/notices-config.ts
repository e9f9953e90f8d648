import * as z from "zod";
import { alertsTopicArnEnv, fleetTimeZoneEnv, tableNameEnv } from "./env-fields.js";
import { alertLinkEnvFields, linkSecretRequired } from "./fields.js";

/** What the notices function reads from its environment (infra/notices.ts sets it). */
export const noticesEnvSchema = z
  .object({
    TABLE_NAME: tableNameEnv,
    ALERTS_TOPIC_ARN: alertsTopicArnEnv,
    GROUPS_FILE: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The groups file (JSON), bundled with the function; unset: no group, so no summary or digest is owed.",
      ),
    OPS_TOPIC_ARN: z
      .string()
      .startsWith("arn:", "must be an ARN")
      .optional()
      .describe(
        "The ops topic: the sweep tells it of set-aside records whose notice a crash left owed; unset: no sweep.",
      ),
    FLEET_TIME_ZONE: fleetTimeZoneEnv,
    // With the secret: summaries and digests link each alert's incident page.
    ...alertLinkEnvFields,
  })
  .refine(...linkSecretRequired);
export type NoticesConfig = z.output<typeof noticesEnvSchema>;
