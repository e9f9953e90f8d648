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
  DEFAULT_SHARE_LINK_HOURS,
  DEFAULT_SOURCE_ORGANIZATION,
  DEFAULT_TSA_TIMEOUT_MS,
  DEFAULT_UTC_OFFSET,
  evidenceMaxWaitDaysSchema,
  shareLinkHoursSchema,
  sourceOrganizationSchema,
  tsaTimeoutMsSchema,
  tsaUrlSchema,
  utcOffsetTextSchema,
} from "../packages/core/src/config/fields.js";
import { accountSettingsListSchema } from "../packages/core/src/config/poller-config.js";
import { schemaKeyField } from "../packages/core/src/config/schema-key.js";
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
  emails: z.array(z.email()).default([]).describe("Addresses this level emails."),
  sms: z.array(e164).default([]).describe("E.164 numbers this level texts."),
});

/**
 * What an ops team sets per stage, in `infra/stages/<stage>.json` (absent: the defaults). Checked
 * at synth time: an invalid file fails `npm run synth` and `sst deploy` before anything is built.
 * What the functions also read (time zone, offset, intervals) is checked with core's schemas, so
 * the synth refuses what the functions would refuse, with the same message. Each field's
 * `.describe` text is its line in docs/configure.md and its hint in an editor.
 */
export const stageConfigSchema = z
  .strictObject({
    ...schemaKeyField,
    production: z
      .boolean()
      .default(false)
      .describe(
        "A production stage keeps its table (deletion-protected) and buckets when the stage is removed; others clean up after themselves.",
      ),
    groupsFile: z
      .string()
      .optional()
      .describe(
        "The groups file (who hears of which alerts), relative to the repository; checked at synth with the rules. Absent: every alert goes to `opsEmails`.",
      ),
    opsEmails: z
      .array(z.email())
      .default([])
      .describe("Who gets the alarms, and every alert no group selects."),
    smsMonthlyBudgetUsd: z
      .number()
      .positive()
      .max(100_000)
      .default(50)
      .describe("The SMS spend alarm fires when the month's SMS cost reaches this many USD."),
    scheduleMinutes: z
      .number()
      .int()
      .min(1)
      .max(60)
      .default(1)
      .describe("With `pollEverySeconds` 60: minutes between each account's scheduled polls."),
    // The chain is timed by SQS delays (poller/poll-timer.ts); `npm run bench` (section 3) prices each mode.
    pollEverySeconds: z
      .literal(POLL_MODES_SECONDS)
      .default(60)
      .describe(
        "Seconds between an account's polls. Under 60, each account's schedule starts a chain of polls every minute, one Lambda invocation each; 60, the scheduled poll alone.",
      ),
    // A poll waits on the device cloud most of its time, so the least memory is the cheapest (bench section 3).
    pollerMemoryMb: z
      .number()
      .int()
      .min(128)
      .max(10_240)
      .default(512)
      .describe("The poller's memory in MB, which sets its share of a CPU (1,769 MB: a whole vCPU)."),
    fleetTimeZone: timeZoneSchema
      .default("UTC")
      .describe("The IANA time zone of local times in messages, pages and claim packs (FLEET_TIME_ZONE)."),
    fleetUtcOffset: utcOffsetTextSchema
      .default(DEFAULT_UTC_OFFSET)
      .describe(
        "The recorders' UTC offset, `+hhmm` or `-hh:mm`, for playback times and record days (FLEET_UTC_OFFSET).",
      ),
    accounts: accountSettingsListSchema
      .default([{ id: "fleet", gpsSpeedUnit: "km/h", gpsLookupBudgetMs: DEFAULT_GPS_LOOKUP_BUDGET_MS }])
      .describe(
        "The device-cloud accounts this stage polls, each with its own cursor, lock, rules file and lag alarm. Each account's address, user and password are the SST secrets DEVICE_CLOUD_<ID>_BASE_URL, _USERNAME and _PASSWORD (the id upper-cased, '-' as '_').",
      ),
    evidenceRetentionDays: z
      .number()
      .int()
      .min(1)
      .max(36_500)
      .default(1)
      .describe(
        "The evidence bucket's Object Lock default retention in days (compliance mode: nobody can delete an object sooner).",
      ),
    evidenceInfrequentAfterDays: z
      .number()
      .int()
      .min(1)
      .default(30)
      .describe("Evidence moves to Glacier Instant Retrieval after this many days."),
    lagAlarmSeconds: z
      .number()
      .int()
      .min(60)
      .default(DEFAULT_LAG_ALARM_SECONDS)
      .describe(
        "An account's cursor-lag alarm fires when its oldest unread event is older than this many seconds.",
      ),
    evidenceConcurrency: z
      .number()
      .int()
      .min(SQS_EVENT_SOURCE_MIN_CONCURRENCY)
      .max(SQS_EVENT_SOURCE_MAX_CONCURRENCY)
      .default(DEFAULT_EVIDENCE_CONCURRENCY)
      .describe("Evidence jobs run at once, at most: the load put on the vendor's playback server."),
    evidenceMaxWaitDays: evidenceMaxWaitDaysSchema
      .default(DEFAULT_EVIDENCE_MAX_WAIT_DAYS)
      .describe(
        "The longest footage is waited for after its event (a vehicle offline, an upload that does not come) when the card's retention is unknown or longer; fractions allowed.",
      ),
    sourceOrganization: sourceOrganizationSchema
      .default(DEFAULT_SOURCE_ORGANIZATION)
      .describe(
        "Who makes the claim packs (their bag-info.txt's Source-Organization): the fleet's operator.",
      ),
    timestampAuthorityUrl: tsaUrlSchema
      .optional()
      .describe(
        "An RFC 3161 Time-Stamp Authority that stamps every claim pack; absent: packs are not stamped.",
      ),
    timestampTimeoutMs: tsaTimeoutMsSchema
      .default(DEFAULT_TSA_TIMEOUT_MS)
      .describe("How long one request to the Time-Stamp Authority may take; a failure is retried later."),
    publicBaseUrl: publicBaseUrlSchema
      .optional()
      .describe(
        "Where incident links start (https, short enough for an SMS to hold the link and its text). Absent: the custom domain, else the HTTP API's own endpoint.",
      ),
    customDomain: z
      .strictObject({
        domainName: z
          .hostname()
          .describe("The incident API's host name; point its DNS at the IncidentDomainTarget output."),
        certificateArn: z
          .string()
          .regex(/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[\w-]+$/)
          .describe("An ACM certificate for the domain, in the stack's region."),
      })
      .optional()
      .describe("The incident API's custom domain."),
    shareLinkHours: shareLinkHoursSchema
      .default(DEFAULT_SHARE_LINK_HOURS)
      .describe("Links in alert emails, SMS and evidence notices stop working after this many hours."),
    shareMaxDays: z
      .number()
      .int()
      .min(1)
      .max(365)
      .default(30)
      .describe(
        "The longest expiry `fleet-alerts share create --expires` may give an outsider's link, in days.",
      ),
    escalation: z
      .strictObject({
        levels: z
          .array(escalationLevelSchema)
          .max(3)
          .default([])
          .describe("Levels 1 to 3, in order: level N hears of an alert unacknowledged at level N-1."),
      })
      .default({ levels: [] })
      .describe("Who hears of alerts that a rule's `escalate` sends on, nobody having acknowledged them."),
    recorderAudit: recorderAuditSettingsSchema
      .default(DEFAULT_RECORDER_AUDIT)
      .describe(
        "The recorder audit, which compares every device's driving with its record map and alerts on driving without video (RECORDER_AUDIT).",
      ),
    cardRetention: cardRetentionSettingsSchema
      .default({ byDeviceType: [] })
      .describe("How long the recorders' cards keep footage, as the stage knows it (CARD_RETENTION)."),
    incidentThrottle: z
      .strictObject({
        rateLimit: z.number().int().min(1).max(10_000).default(20).describe("Steady requests per second."),
        burstLimit: z.number().int().min(1).max(5_000).default(40).describe("Requests in a burst."),
      })
      .default({ rateLimit: 20, burstLimit: 40 })
      .describe("The incident API's throttle."),
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
