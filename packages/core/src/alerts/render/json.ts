import * as z from "zod";
import { POSITION_SOURCES, SPEED_SOURCES } from "../../context/incident-context.js";
import { isoTimestampSchema } from "../../devicecloud/schemas/common.js";
import { roundTo } from "../../rounding.js";
import { severitySchema } from "../../rules/schema.js";
import type { AlertFacts } from "../facts.js";
import { recorderGapBodySchema } from "../recorder-gap.js";

/**
 * The structured alert, the body for SQS, Lambda and HTTP subscribers: what they parse it with.
 * Unknown fields are dropped rather than refused, so that a subscriber keeps working when fields
 * are added.
 */
export const alertBodySchema = z.object({
  kind: z.literal("alert"),
  alertId: z.string(),
  account: z.string(),
  ruleId: z.string(),
  severity: severitySchema,
  eventCode: z.number().int(),
  eventName: z.string(),
  deviceid: z.string(),
  // A string: JSON numbers lose precision beyond 2^53 in most consumers.
  serialno: z.string().regex(/^\d+$/),
  eventtime: isoTimestampSchema,
  vehicleid: z.string().nullable(),
  drivername: z.string().nullable(),
  /**
   * Where the vehicle was at the event, and where that came from: the event's own coordinates, the
   * GPS track at the event time, or the last known fix (`fixtime` then says how far from the event).
   */
  position: z
    .object({
      lat: z.number(),
      lng: z.number(),
      source: z.enum(POSITION_SOURCES),
      fixtime: z.iso.datetime(),
      url: z.string(),
    })
    .nullable(),
  /** At the event, from the GPS track (or an OverSpeed's memo, or a fix taken at the event). */
  speedKmh: z.number().nullable(),
  speedSource: z.enum(SPEED_SOURCES).nullable(),
  /** Degrees clockwise from north, at the event. */
  headingDeg: z.number().nullable(),
  /** For an OverSpeed: the limit the event's memo or the rule states. */
  speedLimitKmh: z.number().nullable(),
  evidence: z
    .object({
      channels: z.array(z.number().int()),
      secondsBefore: z.number().int(),
      secondsAfter: z.number().int(),
    })
    .nullable(),
  suppressedBefore: z.number().int().nonnegative(),
  confirmedOfflineMinutes: z.number().int().nullable(),
  /** Only on a "not recording" alert of the recorder audit: the stretch driven without video. */
  recorderGap: recorderGapBodySchema.optional(),
});
export type AlertBody = z.output<typeof alertBodySchema>;

/** The structured alert as JSON; the device's texts as the service sent them. */
export function renderJson(facts: AlertFacts): string {
  const { position, motion, evidence } = facts;
  const body: AlertBody = {
    kind: "alert",
    alertId: facts.alertId,
    account: facts.account,
    ruleId: facts.ruleId,
    severity: facts.severity,
    eventCode: facts.eventCode,
    eventName: facts.eventName,
    deviceid: facts.asSent.deviceid,
    serialno: facts.serialno,
    eventtime: facts.asSent.eventtime,
    vehicleid: facts.asSent.vehicleid ?? null,
    drivername: facts.asSent.drivername ?? null,
    position: position
      ? {
          lat: position.lat,
          lng: position.lng,
          source: position.source,
          fixtime: new Date(position.fixMs).toISOString(),
          url: position.url,
        }
      : null,
    speedKmh: motion ? roundTo(motion.speedKmh, 1) : null,
    speedSource: motion?.source ?? null,
    headingDeg: motion?.headingDeg ?? null,
    speedLimitKmh: facts.speedLimitKmh ?? null,
    evidence: evidence
      ? {
          channels: evidence.channels,
          secondsBefore: evidence.secondsBefore,
          secondsAfter: evidence.secondsAfter,
        }
      : null,
    suppressedBefore: facts.suppressedBefore,
    confirmedOfflineMinutes: facts.confirmedOfflineMinutes ?? null,
    ...(facts.recorderGap && {
      recorderGap: {
        from: new Date(facts.recorderGap.fromMs).toISOString(),
        to: new Date(facts.recorderGap.toMs).toISOString(),
        minutes: facts.recorderGap.minutes,
        kind: facts.recorderGap.kind,
      },
    }),
  };
  return JSON.stringify(body);
}
