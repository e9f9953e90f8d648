import * as z from "zod";
import { alertsTopicArnEnv, fleetTimeZoneEnv, tableNameEnv } from "./env-fields.js";
import { alertLinkEnvFields, linkSecretRequired } from "./fields.js";

/** What the notices function reads from its environment (infra/notices.ts sets it). */
export const noticesEnvSchema = z
  .object({
    TABLE_NAME: tableNameEnv,
    ALERTS_TOPIC_ARN: alertsTopicArnEnv,
    GROUPS_FILE: z.string().min(1).describe("The groups file (JSON), bundled with the function."),
    FLEET_TIME_ZONE: fleetTimeZoneEnv,
    // With the secret: summaries and digests link each alert's incident page.
    ...alertLinkEnvFields,
  })
  .refine(...linkSecretRequired);
export type NoticesConfig = z.output<typeof noticesEnvSchema>;
