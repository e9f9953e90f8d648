import * as z from "zod";
import { speedUnitSchema } from "../context/speed-unit.js";
import { jsonEnv } from "./env.js";
import { alertsTopicArnEnv, evidenceQueueUrlEnv, fleetTimeZoneEnv, tableNameEnv } from "./env-fields.js";
import {
  alertLinkEnvFields,
  DEFAULT_DEADLINE_MARGIN_SECONDS,
  DEFAULT_GPS_LOOKUP_BUDGET_MS,
  fromEnvString,
  gpsLookupBudgetMsSchema,
  linkSecretRequired,
  pollEverySecondsSchema,
} from "./fields.js";

/** One API account of the device cloud: its own cursor, its own rules. */
export const accountConfigSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "must be letters, digits, '_' or '-'")
    .describe("The account's name in keys, alarms and secrets' names: letters, digits, '_' or '-'."),
  baseUrl: z.url({ protocol: /^https?$/ }).describe("The device cloud's address."),
  username: z.string().min(1).describe("The account's user."),
  // The secret itself never sits in this JSON.
  passwordEnv: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/)
    .default("DEVICE_CLOUD_PASSWORD")
    .describe("The environment variable that holds this account's password."),
  // Retries come on top (see the client's retry policy).
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(60_000)
    .default(10_000)
    .describe("How long one attempt of a device-cloud call may take."),
  playbackTimeoutMs: z
    .number()
    .int()
    .positive()
    .max(300_000)
    .default(30_000)
    .describe("Playback downloads: the wait for the first bytes, and the longest stall while streaming."),
  rulesFile: z
    .string()
    .min(1)
    .optional()
    .describe("This account's rules file (JSON); absent: the default rules."),
  // The spec does not show the unit.
  gpsSpeedUnit: speedUnitSchema
    .default("km/h")
    .describe("The unit of `speed` in this account's GPS history (/api/gps)."),
  gpsLookupBudgetMs: gpsLookupBudgetMsSchema
    .default(DEFAULT_GPS_LOOKUP_BUDGET_MS)
    .describe(
      "The longest the GPS lookups that place a chunk's alerts may take before they go out with the next best position; 0 never calls /api/gps (the evidence track is then unavailable).",
    ),
  startSerialno: z
    .string()
    .regex(/^\d+$/, "must be a serial number (digits)")
    .transform((digits) => BigInt(digits))
    .optional()
    .describe("The serial number the first run starts at; absent: the newest event (no flood of history)."),
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

/** The names of an account's three SST secrets (and of the variables the CLI reads them from). */
export function deviceCloudSecretNames(accountId: string) {
  const prefix = deviceCloudSecretPrefix(accountId);
  return { baseUrl: `${prefix}BASE_URL`, username: `${prefix}USERNAME`, password: `${prefix}PASSWORD` };
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

/** DEVICE_CLOUD_ACCOUNTS: the accounts as JSON, each one's password in the variable it names. */
export const accountsEnv = jsonEnv(accountsSchema).describe(
  "The device-cloud accounts as a JSON list; each has its own cursor and rules.",
);

/** What the poller and the Offline confirmation read from their environment. */
export const pollerEnvSchema = z
  .object({
    TABLE_NAME: tableNameEnv,
    ALERTS_TOPIC_ARN: alertsTopicArnEnv,
    EVIDENCE_QUEUE_URL: evidenceQueueUrlEnv,
    CONFIRM_QUEUE_URL: z
      .url()
      .describe("The SQS queue of delayed Offline checks, consumed by the confirm function."),
    ESCALATION_QUEUE_URL: z
      .url()
      .optional()
      .describe("The SQS queue of delayed escalation jobs; unset: no alert is escalated."),
    DEVICE_CLOUD_ACCOUNTS: accountsEnv,
    // Checked with every account's rules at start (routing/validate.ts).
    GROUPS_FILE: z
      .string()
      .min(1)
      .optional()
      .describe("The groups file (JSON); unset: no group, so every alert goes to the ops' emails."),
    WEBHOOK_QUEUE_URL: z
      .url()
      .optional()
      .describe(
        "The queue of webhook, Slack and Teams deliveries; unset: alerts routed to a target are only logged.",
      ),
    // A bare test environment has none.
    OPS_TOPIC_ARN: z
      .string()
      .startsWith("arn:", "must be an ARN")
      .optional()
      .describe(
        "The ops topic, told of every record set aside; unset: set-aside records are kept and logged.",
      ),
    FLEET_TIME_ZONE: fleetTimeZoneEnv,
    // The chain's timers are SQS delays (poller/poll-timer.ts).
    POLL_EVERY_SECONDS: fromEnvString(pollEverySecondsSchema)
      .optional()
      .describe(
        "Seconds between an account's polls: each scheduled run starts a chain of polls at this interval, one invocation each. Unset: one poll per scheduled run.",
      ),
    POLL_TIMER_QUEUE_URL: z
      .url()
      .optional()
      .describe("The queue a poll chain's timers wait in; needed with POLL_EVERY_SECONDS."),
    DEADLINE_MARGIN_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(120)
      .default(DEFAULT_DEADLINE_MARGIN_SECONDS)
      .describe("The poller stops polling this long before its Lambda deadline."),
    ...alertLinkEnvFields,
  })
  .refine(...linkSecretRequired)
  .refine((env) => env.POLL_EVERY_SECONDS === undefined || env.POLL_TIMER_QUEUE_URL !== undefined, {
    path: ["POLL_TIMER_QUEUE_URL"],
    message: "missing: POLL_EVERY_SECONDS needs the poll-timer queue its chain waits in",
  });
export type PollerConfig = z.output<typeof pollerEnvSchema>;
