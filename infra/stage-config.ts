import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import { publicBaseUrlProblem } from "../packages/core/src/alerts/incident-link.js";
import {
  SQS_EVENT_SOURCE_MAX_CONCURRENCY,
  SQS_EVENT_SOURCE_MIN_CONCURRENCY,
} from "../packages/core/src/aws-limits.js";
import {
  DEFAULT_EVIDENCE_MAX_WAIT_DAYS,
  DEFAULT_GPS_LOOKUP_BUDGET_MS,
  DEFAULT_LAG_ALARM_SECONDS,
  DEFAULT_SOURCE_ORGANIZATION,
  DEFAULT_TSA_TIMEOUT_MS,
  DEFAULT_UTC_OFFSET,
  evidenceMaxWaitDaysSchema,
  sourceOrganizationSchema,
  tsaTimeoutMsSchema,
  tsaUrlSchema,
  utcOffsetTextSchema,
} from "../packages/core/src/config/fields.js";
import { accountSettingsListSchema } from "../packages/core/src/config/poller-config.js";
import { timeZoneSchema } from "../packages/core/src/config/time-zone.js";
import { DEFAULT_EVIDENCE_CONCURRENCY } from "../packages/core/src/evidence/queue-policy.js";
import {
  cardRetentionSettingsSchema,
  DEFAULT_RECORDER_AUDIT,
  recorderAuditSettingsSchema,
} from "../packages/core/src/recorder/settings.js";

const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, "must be an E.164 number like +4915112345678");

/** The intervals a stage may choose, each measured and priced by `npm run bench` (section 3). */
export const POLL_MODES_SECONDS = [2, 3, 5, 10, 15, 60] as const;

/** An https URL with no credentials, query or fragment: links are made by appending `/i/<token>`. */
const publicBaseUrlSchema = z
  .url({ protocol: /^https$/, error: "must be an https URL" })
  .refine((text) => {
    const url = new URL(text);
    return !url.username && !url.password && !url.search && !url.hash;
  }, "must not carry credentials, a query or a fragment")
  .transform((text) => text.replace(/\/+$/, ""))
  // What the poller would refuse at start (an SMS must hold the link and its text).
  .refine((text) => publicBaseUrlProblem(text) === undefined, {
    error: (issue) => publicBaseUrlProblem(String(issue.input)),
  });

/** One escalation level: who hears of an alert nobody acknowledged at the level before. */
const escalationLevelSchema = z.strictObject({
  emails: z.array(z.email()).default([]),
  sms: z.array(e164).default([]),
});

/**
 * What an ops team sets per stage, in `infra/stages/<stage>.json` (absent: the defaults). Checked
 * at synth time: an invalid file fails `npm run synth` and `sst deploy` before anything is built.
 * What the functions also read (time zone, offset, intervals) is checked with core's schemas, so
 * the synth refuses what the functions would refuse, with the same message.
 */
export const stageConfigSchema = z
  .strictObject({
    /** Production stages keep their table and bucket when the stage is removed. */
    production: z.boolean().default(false),
    /**
     * Who hears of which alerts (config/groups.example.json), bundled as groups.json and checked at
     * synth with the rules. Absent: every alert goes to `opsEmails`.
     */
    groupsFile: z.string().optional(),
    /** Alarms go here, and every alert no group selects. */
    opsEmails: z.array(z.email()).default([]),
    /** The SMS spend alarm fires when the month's SMS cost reaches this (USD). */
    smsMonthlyBudgetUsd: z.number().positive().max(100_000).default(50),
    /** With pollEverySeconds 60: one poll every this many minutes (each account's schedule). */
    scheduleMinutes: z.number().int().min(1).max(60).default(1),
    /**
     * Seconds between an account's polls (README "Latency modes" prices each): under 60, each
     * account's schedule starts a chain of polls every minute, one Lambda invocation each, timed by
     * SQS delays (poller/poll-timer.ts); 60, the schedule's poll alone.
     */
    pollEverySeconds: z.literal(POLL_MODES_SECONDS).default(60),
    /**
     * The poller's memory in MB, and its share of a CPU with it (1,769 MB a whole vCPU). A poll waits
     * on the device cloud most of its time, so the least memory is the cheapest (npm run bench, section 3).
     */
    pollerMemoryMb: z.number().int().min(128).max(10_240).default(512),
    /** FLEET_TIME_ZONE of every function. */
    fleetTimeZone: timeZoneSchema.default("UTC"),
    /** FLEET_UTC_OFFSET of the evidence function, passed on as written. */
    fleetUtcOffset: utcOffsetTextSchema.default(DEFAULT_UTC_OFFSET),
    /**
     * The device-cloud accounts this stage polls, each with its own cursor, lock, rules file and lag
     * alarm. Each account's address, user and password are the SST secrets
     * DEVICE_CLOUD_<ID>_BASE_URL, _USERNAME and _PASSWORD (the id upper-cased, '-' as '_'). A stage
     * without a file (a developer's) polls one account, "fleet", with the default rules.
     */
    accounts: accountSettingsListSchema.default([
      { id: "fleet", gpsSpeedUnit: "km/h", gpsLookupBudgetMs: DEFAULT_GPS_LOOKUP_BUDGET_MS },
    ]),
    /** Object Lock default retention (compliance mode) of the evidence bucket. */
    evidenceRetentionDays: z.number().int().min(1).max(36_500).default(1),
    /** Evidence moves to Glacier Instant Retrieval after this many days. */
    evidenceInfrequentAfterDays: z.number().int().min(1).default(30),
    /** The cursor-lag alarm fires above this. */
    lagAlarmSeconds: z.number().int().min(60).default(DEFAULT_LAG_ALARM_SECONDS),
    /** Evidence jobs run at once, at most: the load put on the vendor's playback server (queue-policy.ts). */
    evidenceConcurrency: z
      .number()
      .int()
      .min(SQS_EVENT_SOURCE_MIN_CONCURRENCY)
      .max(SQS_EVENT_SOURCE_MAX_CONCURRENCY)
      .default(DEFAULT_EVIDENCE_CONCURRENCY),
    /**
     * EVIDENCE_MAX_WAIT_DAYS of the evidence function: the longest footage is waited for after its
     * event (a parked job's vehicle offline, or an upload that does not come), when the card's
     * retention is unknown or longer.
     */
    evidenceMaxWaitDays: evidenceMaxWaitDaysSchema.default(DEFAULT_EVIDENCE_MAX_WAIT_DAYS),
    /** Who makes the claim packs (bag-info.txt's Source-Organization): the fleet's operator. */
    sourceOrganization: sourceOrganizationSchema.default(DEFAULT_SOURCE_ORGANIZATION),
    /** An RFC 3161 Time-Stamp Authority that stamps every claim pack; none: packs are not stamped. */
    timestampAuthorityUrl: tsaUrlSchema.optional(),
    timestampTimeoutMs: tsaTimeoutMsSchema.default(DEFAULT_TSA_TIMEOUT_MS),
    /** The base of incident links; absent: the custom domain, else the HTTP API's own endpoint. */
    publicBaseUrl: publicBaseUrlSchema.optional(),
    /** The incident API's custom domain, with an ACM certificate of the stack's region. */
    customDomain: z
      .strictObject({
        domainName: z.hostname(),
        certificateArn: z.string().regex(/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[\w-]+$/),
      })
      .optional(),
    /** Links in alert emails, SMS and evidence notices expire after this many hours. */
    shareLinkHours: z.number().int().min(1).max(720).default(72),
    /** The longest expiry `fleet-alerts share create --expires` may give an outsider's link. */
    shareMaxDays: z.number().int().min(1).max(365).default(30),
    /** Escalation levels 1 to 3, in order; level N hears of an alert unacknowledged at level N-1. */
    escalation: z
      .strictObject({ levels: z.array(escalationLevelSchema).max(3).default([]) })
      .default({ levels: [] }),
    /**
     * The recorder audit (RECORDER_AUDIT): the period every device's driving is compared with its
     * record map in, how often a run starts, the gap that alerts, each run's device-cloud calls, and
     * the digest's "offline" threshold (packages/core/src/recorder/settings.ts).
     */
    recorderAudit: recorderAuditSettingsSchema.default(DEFAULT_RECORDER_AUDIT),
    /** What the stage knows of its cards (CARD_RETENTION): days per device type, a maximum. */
    cardRetention: cardRetentionSettingsSchema.default({ byDeviceType: [] }),
    /** The incident API's default-stage throttle: steady requests per second and burst. */
    incidentThrottle: z
      .strictObject({
        rateLimit: z.number().int().min(1).max(10_000).default(20),
        burstLimit: z.number().int().min(1).max(5_000).default(40),
      })
      .default({ rateLimit: 20, burstLimit: 40 }),
  })
  .refine((config) => config.scheduleMinutes === 1 || config.pollEverySeconds === 60, {
    path: ["scheduleMinutes"],
    message:
      "must be 1 with a pollEverySeconds under 60: each account's schedule, every minute, starts the minute's chain of polls",
  });
export type StageConfig = z.output<typeof stageConfigSchema>;

/**
 * The poller's Lambda timeout: every invocation is one poll. A poll reads a page or a few; a
 * catch-up polls until the time-out less the deadline margin, and the next poll goes on from its
 * cursor. The chain's next poll is planned only once this one has ended (poll-chain.ts).
 */
export const POLLER_TIMEOUT_SECONDS = 60;

export function loadStageConfig(stage: string, root = process.cwd()): StageConfig {
  const file = join(root, "infra", "stages", `${stage}.json`);
  const raw: unknown = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const parsed = stageConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
    throw new Error(`invalid stage configuration ${file}: ${problems.join("; ")}`);
  }
  return parsed.data;
}
