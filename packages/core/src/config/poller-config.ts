import * as z from "zod";
import { SQS_MAX_DELAY_SECONDS } from "../aws-limits.js";
import { speedUnitSchema } from "../context/speed-unit.js";
import { utcOffsetSchema } from "../devicecloud/playback-request.js";
import { EVIDENCE_MAX_RECEIVES } from "../evidence/queue-policy.js";
import { jsonEnv } from "./env.js";
import {
  alertLinkEnvFields,
  DEFAULT_DEADLINE_MARGIN_SECONDS,
  DEFAULT_EVIDENCE_MAX_WAIT_DAYS,
  DEFAULT_GPS_LOOKUP_BUDGET_MS,
  DEFAULT_SOURCE_ORGANIZATION,
  DEFAULT_TSA_TIMEOUT_MS,
  evidenceMaxWaitDaysSchema,
  fromEnvString,
  gpsLookupBudgetMsSchema,
  linkBaseUrlSchema,
  linkSecretRequired,
  pollEverySecondsSchema,
  sourceOrganizationSchema,
  tsaTimeoutMsSchema,
  tsaUrlSchema,
} from "./fields.js";
import { timeZoneSchema } from "./time-zone.js";

/** One API account of the device cloud: its own cursor, its own rules. */
export const accountConfigSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "must be letters, digits, '_' or '-'"),
  baseUrl: z.url({ protocol: /^https?$/ }),
  username: z.string().min(1),
  /** The environment variable that holds this account's password (the secret itself never sits in this JSON). */
  passwordEnv: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/)
    .default("DEVICE_CLOUD_PASSWORD"),
  /** Per attempt of a device-cloud call; retries come on top (see the client's retry policy). */
  timeoutMs: z.number().int().positive().max(60_000).default(10_000),
  /** Playback downloads: the wait for the first bytes, and the longest stall while streaming. */
  playbackTimeoutMs: z.number().int().positive().max(300_000).default(30_000),
  /** A rules file (JSON) for this account; the default rules when absent. */
  rulesFile: z.string().min(1).optional(),
  /** The unit of `speed` in this service's /api/gps points: the spec does not show it. */
  gpsSpeedUnit: speedUnitSchema.default("km/h"),
  /**
   * The most one chunk's /api/gps lookups (one per device with alerts) may take before its alerts
   * go out with the next best position; 0 never calls /api/gps (nor does the evidence function,
   * whose track is then unavailable, "disabled").
   */
  gpsLookupBudgetMs: gpsLookupBudgetMsSchema.default(DEFAULT_GPS_LOOKUP_BUDGET_MS),
  /** Where the first run starts; by default the newest event (no flood of history). */
  startSerialno: z
    .string()
    .regex(/^\d+$/, "must be a serial number (digits)")
    .transform((digits) => BigInt(digits))
    .optional(),
});
export type AccountConfig = z.output<typeof accountConfigSchema>;

/**
 * What a deployed stage says of an account besides its secrets (infra/stage-config.ts lists these;
 * the functions read them from the bundled accounts file, see packages/functions/src/secrets.ts).
 */
export const accountSettingsSchema = accountConfigSchema.pick({
  id: true,
  rulesFile: true,
  gpsSpeedUnit: true,
  gpsLookupBudgetMs: true,
});
export type AccountSettingsConfig = z.output<typeof accountSettingsSchema>;

/**
 * The prefix of an account's SST secrets: DEVICE_CLOUD_<ID>_BASE_URL, _USERNAME and _PASSWORD, the
 * id upper-cased with '-' as '_' (SST secret names are upper-case identifiers).
 */
export function deviceCloudSecretPrefix(accountId: string): string {
  return `DEVICE_CLOUD_${accountId.toUpperCase().replaceAll("-", "_")}_`;
}

/** Ids that repeat, or that share their secrets' names with another ("a-b" and "A_B"). */
export function repeatedIds(accounts: readonly { id: string }[]): string[] {
  const seen = new Set<string>();
  return accounts
    .map((account) => deviceCloudSecretPrefix(account.id))
    .flatMap((prefix, index) => (seen.has(prefix) || !seen.add(prefix) ? [accounts[index]?.id ?? ""] : []));
}

export const accountSettingsListSchema = z
  .array(accountSettingsSchema)
  .min(1)
  .superRefine((accounts, context) => {
    const repeated = repeatedIds(accounts);
    if (repeated.length > 0)
      context.addIssue({
        code: "custom",
        message: `account ids must differ, also upper-cased with '-' as '_' (their secrets' names): ${repeated.join(", ")}`,
      });
  });

export const accountsSchema = z
  .array(accountConfigSchema)
  .min(1)
  .refine(
    (accounts) => new Set(accounts.map((account) => account.id)).size === accounts.length,
    "account ids must be unique",
  );

/** What the poller and the Offline confirmation read from their environment. */
export const pollerEnvSchema = z
  .object({
    TABLE_NAME: z.string().min(1),
    ALERTS_TOPIC_ARN: z.string().startsWith("arn:", "must be an ARN"),
    EVIDENCE_QUEUE_URL: z.url(),
    CONFIRM_QUEUE_URL: z.url(),
    /** Unset: escalation is not set up, and no alert's escalation is scheduled. */
    ESCALATION_QUEUE_URL: z.url().optional(),
    DEVICE_CLOUD_ACCOUNTS: jsonEnv(accountsSchema),
    /**
     * The groups file (routing/groups-schema.ts), checked with every account's rules at start.
     * Unset (a stage without one): no group, so every alert goes to the ops' emails (`unrouted`).
     */
    GROUPS_FILE: z.string().min(1).optional(),
    /** Unset: no webhook, Slack or Teams target is set up (alerts routed to one are only logged). */
    WEBHOOK_QUEUE_URL: z.url().optional(),
    /**
     * The stage's ops topic, told of every record set aside (setaside/). Unset (a bare test
     * environment): set-aside records are kept and logged, and nobody is told.
     */
    OPS_TOPIC_ARN: z.string().startsWith("arn:", "must be an ARN").optional(),
    FLEET_TIME_ZONE: timeZoneSchema.default("UTC"),
    /**
     * The interval of each account's poll chain (poller/poll-timer.ts), with the queue its timers
     * wait in. Unset: one poll per scheduled run (the watchdog's alone).
     */
    POLL_EVERY_SECONDS: fromEnvString(pollEverySecondsSchema).optional(),
    POLL_TIMER_QUEUE_URL: z.url().optional(),
    DEADLINE_MARGIN_SECONDS: z.coerce.number().int().min(1).max(120).default(DEFAULT_DEADLINE_MARGIN_SECONDS),
    ...alertLinkEnvFields,
  })
  .refine(...linkSecretRequired)
  .refine((env) => env.POLL_EVERY_SECONDS === undefined || env.POLL_TIMER_QUEUE_URL !== undefined, {
    path: ["POLL_TIMER_QUEUE_URL"],
    message: "missing: POLL_EVERY_SECONDS needs the poll-timer queue its chain waits in",
  });
export type PollerConfig = z.output<typeof pollerEnvSchema>;

/** What the escalate function reads from its environment: no device cloud, no alerts topic. */
export const escalateEnvSchema = z.object({
  TABLE_NAME: z.string().min(1),
  ESCALATION_TOPIC_ARN: z.string().startsWith("arn:", "must be an ARN"),
  /** Its own queue: the next level's job, and the rest of a wait beyond SQS's 15-minute delay. */
  ESCALATION_QUEUE_URL: z.url(),
  /** Derives each alert's link token, to put its link back into the re-sent message. */
  SHARE_LINK_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
});
export type EscalateConfig = z.output<typeof escalateEnvSchema>;

/** What the evidence function reads from its environment. */
export const evidenceEnvSchema = z.object({
  TABLE_NAME: z.string().min(1),
  ALERTS_TOPIC_ARN: z.string().startsWith("arn:", "must be an ARN"),
  EVIDENCE_QUEUE_URL: z.url(),
  EVIDENCE_BUCKET: z.string().min(3),
  /** Where clips are uploaded and verified before they are copied into the evidence bucket. */
  EVIDENCE_STAGING_BUCKET: z.string().min(3),
  DEVICE_CLOUD_ACCOUNTS: jsonEnv(accountsSchema),
  /** The fleet's UTC offset for playback timestamps and record days (+hhmm). */
  FLEET_UTC_OFFSET: utcOffsetSchema.default(0),
  /** The longest footage is waited for after its event, when the card's retention is unknown or longer. */
  EVIDENCE_MAX_WAIT_DAYS: fromEnvString(evidenceMaxWaitDaysSchema).default(DEFAULT_EVIDENCE_MAX_WAIT_DAYS),
  /** First wait before looking again for footage not recorded yet; doubles each time. */
  EVIDENCE_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(SQS_MAX_DELAY_SECONDS).default(60),
  /** The evidence queue's maxReceiveCount: the last receive marks the evidence failed before the DLQ. */
  EVIDENCE_MAX_RECEIVES: z.coerce.number().int().min(1).max(100).default(EVIDENCE_MAX_RECEIVES),
  /** First visibility back-off after a failure; doubles with each receive. */
  EVIDENCE_FAILURE_BACKOFF_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** The claim pack's report shows times in UTC and in this zone. */
  FLEET_TIME_ZONE: timeZoneSchema.default("UTC"),
  CLAIM_SOURCE_ORGANIZATION: sourceOrganizationSchema.default(DEFAULT_SOURCE_ORGANIZATION),
  /** When set, every claim pack's tag manifest is stamped by this RFC 3161 TSA. */
  TSA_URL: tsaUrlSchema.optional(),
  TSA_TIMEOUT_MS: fromEnvString(tsaTimeoutMsSchema).default(DEFAULT_TSA_TIMEOUT_MS),
  /** Set by Lambda: with the function's name, the chain of custody's "which function". */
  AWS_LAMBDA_FUNCTION_NAME: z.string().optional(),
  AWS_LAMBDA_FUNCTION_VERSION: z.string().optional(),
  /** With the secret: the evidence message carries the alert's incident link, as the alert did. */
  PUBLIC_BASE_URL: linkBaseUrlSchema.optional(),
  SHARE_LINK_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
});
export type EvidenceConfig = z.output<typeof evidenceEnvSchema>;

/** What the incident function reads from its environment (infra/incident.ts sets it). */
export const incidentEnvSchema = z.object({
  TABLE_NAME: z.string().min(1),
  EVIDENCE_BUCKET: z.string().min(3),
  /** Where claim-pack zips are built (under `packs/`), and the queue that asks for one. */
  EVIDENCE_STAGING_BUCKET: z.string().min(3),
  EVIDENCE_QUEUE_URL: z.url(),
  /** The origin links start with; the only origin an acknowledgement may be posted from. */
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }),
  /** The page shows times in UTC and in this zone. */
  FLEET_TIME_ZONE: timeZoneSchema.default("UTC"),
  /** Signs the acknowledgement form (an SST secret in a deployed stage, see secrets.ts). */
  INCIDENT_FORM_SECRET: z.string().min(16, "must be at least 16 characters"),
});
export type IncidentConfig = z.output<typeof incidentEnvSchema>;
