import * as z from "zod";
import { SQS_MAX_DELAY_SECONDS } from "../aws-limits.js";
import { utcOffsetSchema } from "../devicecloud/playback-request.js";
import { EVIDENCE_MAX_RECEIVES } from "../evidence/queue-policy.js";
import {
  alertsTopicArnEnv,
  evidenceBucketEnv,
  evidenceQueueUrlEnv,
  evidenceStagingBucketEnv,
  fleetTimeZoneEnv,
  shareLinkSecretEnv,
  tableNameEnv,
} from "./env-fields.js";
import {
  DEFAULT_EVIDENCE_MAX_WAIT_DAYS,
  DEFAULT_SOURCE_ORGANIZATION,
  DEFAULT_TSA_TIMEOUT_MS,
  evidenceMaxWaitDaysSchema,
  fromEnvString,
  linkBaseUrlSchema,
  sourceOrganizationSchema,
  tsaTimeoutMsSchema,
  tsaUrlSchema,
} from "./fields.js";
import { accountsEnv } from "./poller-config.js";

// The environments of the escalate, evidence and incident functions (the poller's: poller-config.ts).

/** What the escalate function reads from its environment: no device cloud, no alerts topic. */
export const escalateEnvSchema = z.object({
  TABLE_NAME: tableNameEnv,
  ESCALATION_TOPIC_ARN: z
    .string()
    .startsWith("arn:", "must be an ARN")
    .describe("The escalation topic, whose subscribers are the stage's escalation levels."),
  ESCALATION_QUEUE_URL: z
    .url()
    .describe("Its own queue: the next level's job, and the rest of a wait beyond SQS's longest delay."),
  SHARE_LINK_SECRET: shareLinkSecretEnv,
});
export type EscalateConfig = z.output<typeof escalateEnvSchema>;

/** What the evidence function reads from its environment. */
export const evidenceEnvSchema = z.object({
  TABLE_NAME: tableNameEnv,
  ALERTS_TOPIC_ARN: alertsTopicArnEnv,
  EVIDENCE_QUEUE_URL: evidenceQueueUrlEnv.describe(
    "The evidence queue, which jobs whose footage is not recorded yet are sent back to.",
  ),
  EVIDENCE_BUCKET: evidenceBucketEnv,
  EVIDENCE_STAGING_BUCKET: evidenceStagingBucketEnv,
  DEVICE_CLOUD_ACCOUNTS: accountsEnv,
  FLEET_UTC_OFFSET: utcOffsetSchema
    .prefault("+0000")
    .describe("The recorders' UTC offset (`+hhmm`) for playback timestamps and record days."),
  EVIDENCE_MAX_WAIT_DAYS: fromEnvString(evidenceMaxWaitDaysSchema)
    .default(DEFAULT_EVIDENCE_MAX_WAIT_DAYS)
    .describe(
      "The longest footage is waited for after its event, when the card's retention is unknown or longer.",
    ),
  EVIDENCE_RETRY_DELAY_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(SQS_MAX_DELAY_SECONDS)
    .default(60)
    .describe("The first wait before looking again for footage not recorded yet; doubles each time."),
  EVIDENCE_MAX_RECEIVES: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(EVIDENCE_MAX_RECEIVES)
    .describe(
      "The evidence queue's maxReceiveCount: the last receive marks the evidence failed before the DLQ.",
    ),
  EVIDENCE_FAILURE_BACKOFF_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3600)
    .default(30)
    .describe("The first visibility back-off after a failure; doubles with each receive."),
  FLEET_TIME_ZONE: fleetTimeZoneEnv,
  CLAIM_SOURCE_ORGANIZATION: sourceOrganizationSchema
    .default(DEFAULT_SOURCE_ORGANIZATION)
    .describe("Who makes the claim packs (bag-info.txt's Source-Organization)."),
  TSA_URL: tsaUrlSchema
    .optional()
    .describe(
      "An RFC 3161 Time-Stamp Authority that stamps every claim pack's tag manifest; unset: no stamp.",
    ),
  TSA_TIMEOUT_MS: fromEnvString(tsaTimeoutMsSchema)
    .default(DEFAULT_TSA_TIMEOUT_MS)
    .describe("How long one request to the Time-Stamp Authority may take."),
  AWS_LAMBDA_FUNCTION_NAME: z
    .string()
    .optional()
    .describe('Set by Lambda: the chain of custody\'s "which function".'),
  AWS_LAMBDA_FUNCTION_VERSION: z.string().optional().describe("Set by Lambda: the function's version."),
  PUBLIC_BASE_URL: linkBaseUrlSchema
    .optional()
    .describe("With SHARE_LINK_SECRET: the evidence message carries the alert's incident link."),
  SHARE_LINK_SECRET: shareLinkSecretEnv,
});
export type EvidenceConfig = z.output<typeof evidenceEnvSchema>;

/** What the incident function reads from its environment (infra/incident.ts sets it). */
export const incidentEnvSchema = z.object({
  TABLE_NAME: tableNameEnv,
  EVIDENCE_BUCKET: evidenceBucketEnv,
  EVIDENCE_STAGING_BUCKET: evidenceStagingBucketEnv.describe(
    "Where claim-pack zips are built (under `packs/`) for download.",
  ),
  EVIDENCE_QUEUE_URL: evidenceQueueUrlEnv.describe("The evidence queue, which asks for a claim pack."),
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .describe("The origin links start with; the only origin an acknowledgement may be posted from."),
  FLEET_TIME_ZONE: fleetTimeZoneEnv,
  // An SST secret in a deployed stage (packages/functions/src/secrets.ts).
  INCIDENT_FORM_SECRET: z
    .string()
    .min(16, "must be at least 16 characters")
    .describe("Signs the acknowledgement form."),
});
export type IncidentConfig = z.output<typeof incidentEnvSchema>;
