import type * as z from "zod";
import { stageConfigSchema } from "../../infra/stage-config.js";
import {
  accountConfigSchema,
  cardRetentionEnvSchema,
  escalateEnvSchema,
  evidenceEnvSchema,
  incidentEnvSchema,
  noticesEnvSchema,
  pollerEnvSchema,
  recorderAuditEnvSchema,
} from "../../packages/core/src/config/index.js";
import { groupsFileSchema } from "../../packages/core/src/routing/groups-schema.js";
import { rulesFileSchema } from "../../packages/core/src/rules/schema.js";
import { webhookEnvSchema } from "../../packages/core/src/webhooks/config.js";

/**
 * What docs/configure.md documents, each from the schema that checks it: the files an ops team
 * writes (each with a JSON Schema for editors) and the functions' environments.
 */

export interface FileFormat {
  /** Its placeholder in the template, and its JSON Schema's name: schemas/<name>.schema.json. */
  name: string;
  title: string;
  schema: z.ZodType;
  /** The folders holding files of this format, and how their names start. */
  files: { folder: string; prefix: string }[];
}

export const FILE_FORMATS: readonly FileFormat[] = [
  {
    name: "stage",
    title: "fleet-alerts stage file (infra/stages/<stage>.json)",
    schema: stageConfigSchema,
    files: [{ folder: "infra/stages", prefix: "" }],
  },
  {
    name: "rules",
    title: "fleet-alerts rules file",
    schema: rulesFileSchema,
    files: [{ folder: "config", prefix: "rules." }],
  },
  {
    name: "groups",
    title: "fleet-alerts groups file",
    schema: groupsFileSchema,
    files: [{ folder: "config", prefix: "groups." }],
  },
];

export const schemaFileOf = (format: FileFormat) => `schemas/${format.name}.schema.json`;

/** Documented without a JSON Schema file: no file of it is written by hand (the stage makes it). */
export const ACCOUNTS_FORMAT = { name: "accounts", schema: accountConfigSchema } as const;

/** Each function's environment, in the order a message travels through them. */
export const FUNCTION_ENVIRONMENTS: readonly { name: string; schema: z.ZodType }[] = [
  { name: "Poller and Offline confirmation", schema: pollerEnvSchema },
  { name: "Evidence", schema: evidenceEnvSchema.extend(cardRetentionEnvSchema.shape) },
  { name: "Escalate", schema: escalateEnvSchema },
  { name: "Webhook", schema: webhookEnvSchema },
  { name: "Notices (quiet-hour summaries, digests, SMS-cap summaries)", schema: noticesEnvSchema },
  { name: "Recorder audit (besides the poller's)", schema: recorderAuditEnvSchema },
  { name: "Incident pages", schema: incidentEnvSchema },
];
