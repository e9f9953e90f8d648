import * as z from "zod";
import { alertIdOf } from "../alerts/record.js";
import { syntheticSerial } from "../alerts/synthetic-serial.js";
import { deviceIdSchema } from "../devicecloud/schemas/common.js";
import { evidenceChannelsSchema, evidenceSecondsSchema } from "../rules/schema.js";

/**
 * Footage asked for by hand for a moment no alert was raised for (`fleet-alerts evidence request`):
 * its alert is `<account>:<synthetic serial>:on-request`, a rule id no rules file may use (rule ids
 * start with a letter or digit and this one is reserved here), so it never meets a real alert.
 */
export const ON_REQUEST_RULE_ID = "on-request";

/**
 * The alert record's `appdevid` for a request: it has no event. Negative, so that it is never one of
 * the device cloud's codes (the spec's are 0 and up).
 */
export const NO_EVENT_CODE = -1;

/** Long enough for a claim reference and a sentence; short enough for a table cell and a report line. */
export const REQUEST_REASON_MAX = 500;
const REQUESTER_MAX = 128;

/** One line of the operator's text: a reason or a name never adds a line to the report, the audit or a terminal. */
const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]+$/u, "must be one line, without control characters");

/**
 * A request as the operator gives it, checked before anything is written. The device id is used as
 * a playback path segment: `@`, `/` and `\` would change the request (playback-request.ts). The
 * window follows a rule's evidence limits (rules/schema.ts).
 */
export const footageRequestInputSchema = z
  .object({
    account: z.string().min(1),
    deviceid: deviceIdSchema.regex(/^[^@/\\]+$/, "must not contain @, / or \\"),
    // To the whole second: playback timestamps have seconds, and the same second is the same request.
    atMs: z
      .number()
      .int()
      .transform((ms) => Math.floor(ms / 1000) * 1000),
    secondsBefore: evidenceSecondsSchema,
    secondsAfter: evidenceSecondsSchema,
    channels: evidenceChannelsSchema,
    reason: oneLine(REQUEST_REASON_MAX),
    requestedBy: oneLine(REQUESTER_MAX),
  })
  .refine(
    (request) => request.secondsBefore + request.secondsAfter > 0,
    "--before and --after must not both be 0 (the clip would be empty)",
  );
export type FootageRequestInput = z.output<typeof footageRequestInputSchema>;

/**
 * The request's alert: its serial derived from what the footage is (device, moment to the whole
 * second, window, channels in order), not from who asked or why, so that asking again for the same
 * footage finds the same record and pack instead of making a second one. The account is the
 * alert id's own part (each account has its own partition).
 */
export function requestedAlert(request: Omit<FootageRequestInput, "reason" | "requestedBy">) {
  const serialno = syntheticSerial(
    "footage-request",
    request.deviceid,
    new Date(request.atMs).toISOString(),
    String(request.secondsBefore),
    String(request.secondsAfter),
    [...request.channels].sort((a, b) => a - b).join(","),
  );
  return {
    account: request.account,
    serialno,
    ruleId: ON_REQUEST_RULE_ID,
    alertId: alertIdOf(request.account, serialno, ON_REQUEST_RULE_ID),
  };
}
