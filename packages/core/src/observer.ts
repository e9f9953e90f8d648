import * as z from "zod";
import { RECORDER_GAP_KINDS } from "./alerts/recorder-gap.js";
import { alertBodySchema } from "./alerts/render/json.js";
import { GPS_HISTORY_GAPS } from "./context/gps-history.js";
import { manifestTrackSchema } from "./evidence/manifest.js";
import { RECORDER_AUDIT_OUTCOMES } from "./recorder/outcomes.js";
import { setAsideEntrySchema } from "./setaside/entry.js";

/** Where an alert's claim pack is (its prefix is the bag's root), and how its timestamp went. */
const claimPackSchema = z.object({
  prefix: z.string(),
  report: z.string(),
  timestamp: z.enum(["off", "already", "stamped", "pending", "unavailable"]),
});

/**
 * What the pipeline did, as typed observations: the handlers report each decision and outcome
 * here instead of describing it in log text. In Lambda an observer writes them as structured log
 * lines (ids and decisions only); the local mode feeds its live view and `--json` from them, and
 * tests assert on them. One schema per `type`, so a consumer can parse a line it reads back.
 */

const alertIds = {
  account: z.string(),
  alertId: z.string(),
  /** The event's serial number, as the digits the service sent (beyond 2^53 in JSON). */
  serialno: z.string(),
  rule: z.string(),
  deviceid: z.string(),
};
const eventIds = { account: z.string(), serialno: z.string(), rule: z.string(), deviceid: z.string() };

export const observationSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("alert-published"),
    ...alertIds,
    severity: z.string(),
    /** The JSON body that subscribers get, and the SMS: personal data, never logged in Lambda. */
    body: alertBodySchema,
    sms: z.string(),
    /** The incident page's URL (it holds the token): never logged in Lambda either. */
    link: z.string().optional(),
    /** The recipient groups it went to now (routing/route.ts). */
    groups: z.array(z.string()),
    /** The groups that hold it for their quiet hours. */
    held: z.array(z.string()),
    /**
     * How many it went to on each channel (its route's, so a retry after a partial send counts
     * them all), and the webhook, Slack and Teams targets by name: counts, no address.
     */
    recipients: z.object({
      email: z.number().int(),
      sms: z.number().int(),
      /** SMS recipients past their hourly cap: not texted, summarised later. */
      smsCapped: z.number().int(),
      targets: z.array(z.string()),
    }),
  }),
  z.object({ type: z.literal("alert-failed"), ...alertIds, reason: z.string() }),
  /**
   * A record that AWS refused for good at one step (setaside/): kept with its reason and told to
   * ops, so that everything else goes out and the cursor moves on. Ids only.
   */
  setAsideEntrySchema.extend({ type: z.literal("record-set-aside") }),
  z.object({ type: z.literal("alert-suppressed"), ...eventIds, suppressedSoFar: z.number() }),
  z.object({ type: z.literal("alert-stale"), ...alertIds }),
  z.object({
    type: z.literal("event-rejected"),
    account: z.string(),
    serialno: z.string().optional(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })),
  }),
  z.object({
    type: z.literal("gps-history-unavailable"),
    account: z.string(),
    deviceid: z.string(),
    reason: z.enum(GPS_HISTORY_GAPS),
    /** The device's alerts in the chunk, which go out with the next best position. */
    alerts: z.number(),
  }),
  /** Ids only: who acknowledged and their note are personal data, kept on the record, never logged. */
  z.object({
    type: z.literal("alert-acknowledged"),
    ...alertIds,
    at: z.string(),
    /** The share link it came through (its id, never the token). */
    tokenId: z.string().optional(),
  }),
  z.object({
    type: z.literal("alert-escalated"),
    ...alertIds,
    level: z.number(),
    levels: z.number(),
    /** How long the alert had gone unacknowledged when this level was sent. */
    unacknowledgedSeconds: z.number(),
    /** The incident page's URL the escalation carried (it holds the token): never logged in Lambda. */
    link: z.string().optional(),
  }),
  z.object({
    type: z.literal("escalation-cancelled"),
    ...alertIds,
    /** The level that was due and is not sent. */
    level: z.number(),
    reason: z.literal("acknowledged"),
  }),
  z.object({ type: z.literal("offline-scheduled"), ...eventIds, dueAt: z.string() }),
  z.object({ type: z.literal("offline-confirmed"), ...alertIds }),
  z.object({
    type: z.literal("offline-cancelled"),
    ...eventIds,
    /** An Online event came first, the device was in the online list at the check, or its rule is gone. */
    reason: z.enum(["online-event", "online-again", "rule-removed"]),
  }),
  z.object({ type: z.literal("offline-suppressed"), ...eventIds }),
  /**
   * The check's alert is claimed by another delivery of the same check (SQS delivered it twice):
   * that one sends it; the job comes back once the claim has run out, in case it crashed.
   */
  z.object({ type: z.literal("offline-busy"), ...eventIds }),
  z.object({
    type: z.literal("evidence-stored"),
    ...alertIds,
    bucket: z.string(),
    manifestKey: z.string(),
    clips: z.array(z.object({ key: z.string(), channel: z.number(), bytes: z.number(), sha256: z.string() })),
    partial: z.boolean(),
    /** `track.geojson` as the manifest lists it, or why there is none. */
    track: manifestTrackSchema,
    bag: claimPackSchema,
  }),
  z.object({
    type: z.literal("evidence-waiting"),
    ...alertIds,
    retryInSeconds: z.number(),
    attempt: z.number(),
  }),
  z.object({
    type: z.literal("evidence-unavailable"),
    ...alertIds,
    bucket: z.string(),
    /** Without video, the bag still holds the event, the track and the report saying why. */
    bag: claimPackSchema,
    /** Why: never recorded, or overwritten while the vehicle stayed offline (manifest.ts `footage`). */
    footage: z.enum(["not-recorded", "overwritten"]),
  }),
  /** The footage is not on the device cloud and the device is offline: the job waits for it (evidence/park.ts). */
  z.object({
    type: z.literal("evidence-parked"),
    ...alertIds,
    offlineSince: z.string(),
    /** Until when it is waited for: the card's retention after the event, or the stage's maximum. */
    keptUntil: z.string(),
    retentionDays: z.number().nullable(),
  }),
  /** A parked job sent back to the evidence queue: its device's Online event, or the sweep's online list. */
  z.object({
    type: z.literal("evidence-woken"),
    ...alertIds,
    by: z.enum(["online-event", "online-list"]),
    parkedAt: z.string(),
  }),
  /** "Footage at risk" went to the alert's email recipients (once per alert). */
  z.object({
    type: z.literal("evidence-at-risk"),
    ...alertIds,
    offlineSince: z.string(),
    keptUntil: z.string(),
    retentionDays: z.number().nullable(),
    recipients: z.number(),
  }),
  z.object({
    type: z.literal("evidence-timestamped"),
    ...alertIds,
    /** The Time-Stamp Authority's time and name, from the token. */
    genTime: z.string(),
    tsa: z.string(),
  }),
  z.object({
    type: z.literal("evidence-timestamp-failed"),
    ...alertIds,
    reason: z.string(),
    attempt: z.number(),
    /** The attempts ran out: the bag stays without a token, its timestamp page says why. */
    final: z.boolean(),
  }),
  z.object({
    type: z.literal("claim-pack-zipped"),
    ...alertIds,
    /** The zip's key in the staging bucket; `built` false: it was there already (a job delivered twice). */
    key: z.string(),
    built: z.boolean(),
  }),
  z.object({
    type: z.literal("evidence-failed"),
    ...alertIds,
    reason: z.string(),
    receives: z.number(),
    /** The last receive: the job goes to the DLQ and the alert's evidence is marked failed. */
    final: z.boolean(),
  }),
  /**
   * One group told what a catch-up held back as stale (notices/stale-summaries.ts). Counts only: the
   * alerts it lists and their links go into the email, never into a log line.
   */
  z.object({
    type: z.literal("stale-summary-sent"),
    account: z.string(),
    /** The account's summary number: one per catch-up. */
    summary: z.number(),
    /** The group told; absent: the ops' emails, told of the stale alerts no group selects. */
    group: z.string().optional(),
    alerts: z.number(),
    byRule: z.record(z.string(), z.number()),
    /** The email recipients it went to. */
    recipients: z.number(),
  }),
  /** The recorder audit raised a "not recording" alert (recorder/): ids and the gap, no names. */
  z.object({
    type: z.literal("recorder-gap"),
    ...alertIds,
    from: z.string(),
    to: z.string(),
    minutes: z.number(),
    kind: z.enum(RECORDER_GAP_KINDS),
  }),
  /** A device's card retention, estimated from its record maps (recorder/retention-estimate.ts). */
  z.object({
    type: z.literal("retention-estimated"),
    account: z.string(),
    deviceid: z.string(),
    days: z.number(),
    /** The card held video as far back as the estimate looks. */
    atLeast: z.boolean(),
  }),
  /** One device's audit failed (a device-cloud call): skipped, the run goes on. */
  z.object({
    type: z.literal("recorder-audit-failed"),
    account: z.string(),
    deviceid: z.string(),
    reason: z.string(),
  }),
  /** One run of the recorder audit: how far it got, and why it stopped. */
  z.object({
    type: z.literal("recorder-audit-summary"),
    account: z.string(),
    /** The start of the (last) period the run worked on, ISO 8601. */
    period: z.string(),
    outcome: z.enum(RECORDER_AUDIT_OUTCOMES),
    devicesAudited: z.number(),
    gaps: z.number(),
    failures: z.number(),
    retentionsEstimated: z.number(),
    /** Device-cloud calls made (at most the stage's `callsPerRun`). */
    calls: z.number(),
  }),
  /**
   * A poll stopped by the fence (cursor/fence.ts): a later poll took its lease (it outlived it: a
   * stalled process), or its time ran out before a write no condition can guard. It sent nothing
   * more; the poll that holds the lease goes on from the cursor. `at`: the refused write or check.
   */
  z.object({ type: z.literal("poll-fenced"), account: z.string(), epoch: z.number(), at: z.string() }),
  z.object({
    type: z.literal("poll-summary"),
    account: z.string(),
    outcome: z.enum(["caught-up", "deadline", "started", "locked", "fenced", "cursor-moved"]),
    eventsRead: z.number(),
    alertsPublished: z.number(),
    alertsFailed: z.number(),
    suppressed: z.number(),
    stale: z.number(),
    rejected: z.number(),
    offlineChecks: z.number(),
    offlineCancelled: z.number(),
    evidenceJobs: z.number(),
    /** /api/gps calls for alert positions (one per device with alerts in a chunk, at most). */
    gpsLookups: z.number(),
    /** Of those, the ones that gave no track (failed, slow, empty, malformed, over budget). */
    gpsLookupsFailed: z.number(),
    /** Published-to-be alerts by where their position came from. */
    positionsFromEvent: z.number(),
    positionsFromTrack: z.number(),
    positionsLastKnown: z.number(),
    positionsUnknown: z.number(),
    cursor: z.string().optional(),
    /** Age of the oldest event left unread when the run stopped (0 when caught up). */
    lagSeconds: z.number(),
  }),
]);
export type Observation = z.output<typeof observationSchema>;
export type ObservationType = Observation["type"];
export type ObservationOf<T extends ObservationType> = Extract<Observation, { type: T }>;

export interface Observer {
  observe(observation: Observation): void;
}

/** For code run where nobody watches (a CLI replay, a benchmark baseline). */
export const ignoreObservations: Observer = { observe: () => undefined };
