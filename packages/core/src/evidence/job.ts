import * as z from "zod";
import type { AlertRecord, EvidenceRequest } from "../alerts/record.js";
import { alertBodySchema } from "../alerts/render/json.js";
import { evidenceChannelsSchema, evidenceSecondsSchema } from "../rules/schema.js";
import { overwrittenFootageSchema } from "./manifest.js";
import { footageRequestSchema } from "./request-custody.js";

/**
 * The message the poller puts on the evidence queue for an alert whose rule wants video; the
 * evidence function reads it. Versioned, so that a change of shape is seen, not guessed.
 */
export const evidenceJobSchema = z.object({
  version: z.literal(1),
  alertId: z.string(),
  account: z.string(),
  ruleId: z.string(),
  deviceid: z.string(),
  serialno: z.string().regex(/^\d+$/),
  eventtime: z.iso.datetime({ offset: true }),
  // As the rule allows (32 channels, each once; an hour each side at most): the window, its record
  // maps and its clips stay bounded.
  channels: evidenceChannelsSchema,
  secondsBefore: evidenceSecondsSchema,
  secondsAfter: evidenceSecondsSchema,
  severity: z.string(),
  /** The event as the service sent it (serialno as its digits), for the manifest. */
  event: z.record(z.string(), z.unknown()),
  /** Re-sends of this job while the footage was not recorded yet; drives the growing delay. */
  attempt: z.number().int().nonnegative().default(0),
  /**
   * The alert as published (vehicle, driver, where and how fast at the event), for the claim
   * pack's report. Jobs queued before claim packs have none; their report says less.
   */
  alert: alertBodySchema.optional(),
  /** Re-sends of this job to ask the Time-Stamp Authority again, the bag being stored. */
  timestampAttempt: z.number().int().nonnegative().default(0),
  /**
   * The alert went out with a link to its incident page (its grant is written), so the evidence
   * message may carry the same link. Jobs queued before links have none: no link is made up.
   */
  incidentLink: z.boolean().default(false),
  /**
   * Footage asked for by hand (`fleet-alerts evidence request`): who asked, why and when, for the
   * custody record. Such a job has no event: `event` is the request as made, and nobody is told
   * by SNS (the requester has the link the command printed).
   */
  request: footageRequestSchema.optional(),
  /**
   * Set by the parked-evidence sweep (sweep.ts) on a job given up: its vehicle stayed offline until
   * the card's retention had passed, so the footage is taken as overwritten. The evidence function
   * asks the device cloud for no record map or playback and writes the bag without video, saying why.
   */
  overwritten: overwrittenFootageSchema.optional(),
});
export type EvidenceJob = z.output<typeof evidenceJobSchema>;
export type EvidenceJobInput = z.input<typeof evidenceJobSchema>;

/** The ids every observation of a job carries. */
export function jobIds(job: EvidenceJob) {
  return {
    account: job.account,
    alertId: job.alertId,
    serialno: job.serialno,
    deviceid: job.deviceid,
    rule: job.ruleId,
  };
}

/**
 * The evidence job of an alert record whose rule (or request) wants video: what the poller hands on
 * for an alert and `evidence request` sends for footage asked for by hand, from the record alone.
 */
export function evidenceJobOf(
  record: AlertRecord,
  evidence: EvidenceRequest,
  extra: Pick<EvidenceJob, "incidentLink"> & Partial<Pick<EvidenceJob, "alert" | "request">>,
): EvidenceJob {
  return {
    version: 1,
    alertId: record.alertId,
    account: record.account,
    ruleId: record.ruleId,
    deviceid: record.deviceid,
    serialno: record.serialno.toString(),
    eventtime: record.eventtime,
    channels: evidence.channels,
    secondsBefore: evidence.secondsBefore,
    secondsAfter: evidence.secondsAfter,
    severity: record.severity,
    event: record.event ? (JSON.parse(record.event) as Record<string, unknown>) : {},
    attempt: 0,
    timestampAttempt: 0,
    ...extra,
  };
}

/** The alert record a job belongs to. */
export function alertOf(job: Pick<EvidenceJob, "account" | "serialno" | "ruleId">) {
  return { account: job.account, serialno: BigInt(job.serialno), ruleId: job.ruleId };
}

/**
 * Whether a message of the evidence queue is of another kind than an evidence job (which has no
 * `kind`): a claim-pack job, the parked-evidence sweep. Its own schema then names what is wrong.
 */
export function isMessageOfKind(message: unknown, kind: string): boolean {
  return typeof message === "object" && message !== null && "kind" in message && message.kind === kind;
}
