import * as z from "zod";
import { publicBaseUrlProblem } from "../alerts/incident-link.js";
import { utcOffsetSchema } from "../devicecloud/playback-request.js";
import { shareLinkSecretEnv } from "./env-fields.js";

/**
 * The settings that both a function's environment and a deployment's stage file
 * (infra/stage-config.ts) carry, each checked by one schema: a stage value the function would refuse
 * at start fails the synth instead, with the same message. The environment reads strings: wrap the
 * numeric ones in `fromEnvString`.
 */

/**
 * The longest an evidence job waits for its footage, in days after the event (fractions allowed:
 * tests and the local mode wait hours): the card's retention when it is known and shorter, else this.
 * A parked job (the vehicle offline) is given up when it has passed; so is one still not recorded.
 */
export const evidenceMaxWaitDaysSchema = z.number().positive().max(366);
export const DEFAULT_EVIDENCE_MAX_WAIT_DAYS = 14;

/** The most one chunk window's /api/gps lookups may take; 0 never calls /api/gps. */
export const gpsLookupBudgetMsSchema = z.number().int().min(0).max(30_000);
export const DEFAULT_GPS_LOOKUP_BUDGET_MS = 3_000;

/**
 * Seconds between the polls of an account's chain (poller/poll-timer.ts); 60 and more is the
 * watchdog's poll alone, with no chain. A stage chooses one of the modes the bench prices
 * (infra/stage-config.ts); the local mode's tests poll every half second.
 */
export const pollEverySecondsSchema = z.number().min(0.5).max(59);

/**
 * DEADLINE_MARGIN_SECONDS of the poller: it stops polling this long before its Lambda time-out, so
 * that the two chunks under way are written, and a device-cloud call just started (10 s time-out
 * by default) ends, in time. The stage's time-out adds it to the run's interval (infra/stage-config.ts).
 */
export const DEFAULT_DEADLINE_MARGIN_SECONDS = 10;

/**
 * The fleet's UTC offset as written ("+0100", "-03:30"), checked as the functions read it
 * (utcOffsetSchema, with its messages) and kept as text, to be passed on in the same form.
 */
export const utcOffsetTextSchema = z.string().check((context) => {
  const parsed = utcOffsetSchema.safeParse(context.value);
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    context.issues.push({ code: "custom", message: issue.message, input: context.value, path: issue.path });
  }
});
export const DEFAULT_UTC_OFFSET = "+0000";

/** An environment variable read as a number, then checked by the same schema as the stage file's. */
export function fromEnvString<S extends z.ZodType<number, number>>(schema: S) {
  return z.coerce.number().pipe(schema);
}

/** A stage's cursor-lag alarm threshold unless its file says otherwise (lagAlarmSeconds); doctor's too. */
export const DEFAULT_LAG_ALARM_SECONDS = 600;

/** bag-info.txt's Source-Organization: who made the claim packs (the fleet's operator). */
export const sourceOrganizationSchema = z.string().trim().min(1).max(200);
export const DEFAULT_SOURCE_ORGANIZATION = "fleet-alerts";

/**
 * An RFC 3161 Time-Stamp Authority's URL. No credentials in it: the stage file and the function's
 * environment are not secret stores, and the URL is shown in errors.
 */
export const tsaUrlSchema = z
  .url({ protocol: /^https?$/ })
  .refine((url) => !new URL(url).username && !new URL(url).password, "must not carry credentials");
/** How long one request to the TSA may take; a failure is retried later, never blocking the bag. */
export const tsaTimeoutMsSchema = z.number().int().min(100).max(60_000);
export const DEFAULT_TSA_TIMEOUT_MS = 10_000;

/**
 * Where incident links start (no trailing slash): short enough, and in the SMS alphabet, for an
 * alert's SMS to hold its link and its text in one segment. A longer one is refused here rather
 * than send links cut short.
 */
export const linkBaseUrlSchema = z
  .url({ protocol: /^https?$/ })
  .transform((text) => text.replace(/\/+$/, ""))
  .check((context) => {
    const problem = publicBaseUrlProblem(context.value);
    if (problem) context.issues.push({ code: "custom", message: problem, input: context.value });
  });

/** How long the link in an alert's messages works, in hours (at most 30 days). */
export const shareLinkHoursSchema = z.number().int().min(1).max(720);
export const DEFAULT_SHARE_LINK_HOURS = 72;

/**
 * The incident-link fields of a function that sends messages about alerts: where links start, how
 * long they work, and the secret that derives each alert's token (from SSM in a deployed stage).
 */
export const alertLinkEnvFields = {
  PUBLIC_BASE_URL: linkBaseUrlSchema
    .optional()
    .describe("Where incident links start (`<PUBLIC_BASE_URL>/i/<token>`); unset: messages carry no link."),
  SHARE_LINK_HOURS: fromEnvString(shareLinkHoursSchema)
    .default(DEFAULT_SHARE_LINK_HOURS)
    .describe("How long an alert's link works after it is published, in hours."),
  SHARE_LINK_SECRET: shareLinkSecretEnv,
};

/** Links need their secret: PUBLIC_BASE_URL without SHARE_LINK_SECRET is refused (`.refine(...linkSecretRequired)`). */
export const linkSecretRequired: [
  (env: { PUBLIC_BASE_URL?: string | undefined; SHARE_LINK_SECRET?: string | undefined }) => boolean,
  { path: string[]; message: string },
] = [
  (env) => env.PUBLIC_BASE_URL === undefined || env.SHARE_LINK_SECRET !== undefined,
  {
    path: ["SHARE_LINK_SECRET"],
    message: "missing: PUBLIC_BASE_URL is set, and alert links need the secret",
  },
];
