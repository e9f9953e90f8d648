import * as z from "zod";
import { timeZoneSchema } from "./time-zone.js";

/**
 * Environment variables that several functions read with one meaning, described once: each
 * `.describe` text is the variable's line in docs/configure.md.
 */

export const tableNameEnv = z.string().min(1).describe("The DynamoDB table (keys `pk`, `sk`).");

export const alertsTopicArnEnv = z
  .string()
  .startsWith("arn:", "must be an ARN")
  .describe("The SNS topic alerts go to, one message per recipient.");

export const evidenceQueueUrlEnv = z
  .url()
  .describe("The SQS queue of evidence jobs (one per alert whose rule wants video).");

export const evidenceBucketEnv = z
  .string()
  .min(3)
  .describe("The evidence bucket (Object Lock): clips, claim packs and their records.");

export const evidenceStagingBucketEnv = z
  .string()
  .min(3)
  .describe("Where clips are uploaded and verified before they are copied into the evidence bucket.");

export const fleetTimeZoneEnv = timeZoneSchema
  .default("UTC")
  .describe("The IANA time zone of local times in messages, pages and claim packs.");

export const shareLinkSecretEnv = z
  .string()
  .min(32, "must be at least 32 characters")
  .optional()
  .describe(
    "Derives each alert's link token from its id, so no token is stored; needed with PUBLIC_BASE_URL.",
  );
