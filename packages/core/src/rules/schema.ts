import * as z from "zod";
import { schemaKeyField } from "../config/schema-key.js";
import { EVENT_CODES } from "../devicecloud/codes.js";
import { deviceIdSchema } from "../devicecloud/schemas/common.js";
import { escalationPolicySchema } from "./escalation-policy.js";
import { eventSelectorSchema } from "./event-selector.js";

export const SEVERITIES = ["info", "warning", "critical"] as const;
export const severitySchema = z.enum(SEVERITIES);
export type Severity = z.output<typeof severitySchema>;

const MAX_COOLDOWN_SECONDS = 7 * 24 * 3600;
const MIN_STALE_AFTER_SECONDS = 60;
const MAX_OFFLINE_MINUTES = 720;
/** A clip reaches at most an hour each side of its event: what bounds an evidence job's record maps (two days at most). */
export const MAX_EVIDENCE_SECONDS = 3600;
// The playback download selects a channel by a bit of a 32-bit mask.
const MAX_CHANNEL = 32;

/** Rule ids go into DynamoDB keys, alert ids and SNS attributes: a short, plain alphabet. */
const ruleIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
    "must be 1 to 64 letters, digits, '_' or '-', starting with a letter or digit",
  );

// Checked for emptiness first so that "" gets one clear message rather than the id schema's two.
// An empty prefix would match every device: leaving the filter out says that plainly.
const nonEmptyDeviceIdSchema = z.string().min(1, "must not be empty").pipe(deviceIdSchema);

const devicesFilterSchema = z
  .strictObject({
    ids: z
      .array(nonEmptyDeviceIdSchema)
      .default([])
      .describe("Device ids, exactly as the device cloud sends them."),
    prefixes: z
      .array(nonEmptyDeviceIdSchema)
      .default([])
      .describe("Starts of device ids: a device whose id starts with one matches."),
  })
  .refine(
    (filter) => filter.ids.length > 0 || filter.prefixes.length > 0,
    'must list at least one id or prefix (leave "devices" out to match every device)',
  );

/** Seconds of video before or after the event: a rule's, and the evidence job's that carries them. */
export const evidenceSecondsSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_EVIDENCE_SECONDS, `must be at most ${MAX_EVIDENCE_SECONDS} (1 hour)`);

/** The channels to fetch, each once: a rule's, and the evidence job's that carries them. */
export const evidenceChannelsSchema = z
  .array(z.number().int().min(1).max(MAX_CHANNEL))
  .min(1, "must list at least one channel")
  .refine((channels) => new Set(channels).size === channels.length, "must not repeat a channel");

const evidenceSchema = z
  .strictObject({
    channels: evidenceChannelsSchema.describe("The recorder's channels (cameras) to fetch, each once."),
    secondsBefore: evidenceSecondsSchema.describe("Seconds of video before the event."),
    secondsAfter: evidenceSecondsSchema.describe("Seconds of video after the event."),
  })
  .refine(
    (evidence) => evidence.secondsBefore + evidence.secondsAfter > 0,
    "secondsBefore and secondsAfter must not both be 0 (the clip would be empty)",
  );

/**
 * Lets a cross-field check run even when other fields have problems, so that a file's problems are
 * all reported at once; but only when the fields it reads are themselves valid.
 */
function whenFieldsValid(...fields: string[]) {
  return (payload: z.core.ParsePayload): boolean =>
    typeof payload.value === "object" &&
    payload.value !== null &&
    !payload.issues.some((issue) => fields.includes(String(issue.path?.[0])));
}

/**
 * One alert rule. The output is normalized: `events` (numbers or names) becomes `eventCodes`
 * (numbers, deduplicated), and defaults are filled in.
 */
export const ruleSchema = z
  .strictObject({
    id: ruleIdSchema.describe("The rule's id, in alerts, messages and group selectors."),
    description: z
      .string()
      .max(500)
      .optional()
      .describe("What the rule is for, for the people who read the file."),
    enabled: z.boolean().default(true).describe("false: the rule is kept but alerts on nothing."),
    events: z
      .array(eventSelectorSchema)
      .min(1, "must list at least one event")
      .describe(
        'Event codes by number, or by the spec\'s name such as "OverSpeed" (any case); unknown numbers are allowed.',
      ),
    devices: devicesFilterSchema
      .optional()
      .describe("The devices the rule applies to; absent: every device."),
    severity: severitySchema.describe(
      "How serious the alert is: groups select by it, quiet hours hold by it.",
    ),
    cooldownSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_COOLDOWN_SECONDS, `must be at most ${MAX_COOLDOWN_SECONDS} (7 days)`)
      .default(0)
      .describe(
        "Per device: repeats inside it are suppressed and counted in the next alert; 0: every event alerts.",
      ),
    staleAfterSeconds: z
      .number()
      .int()
      .min(MIN_STALE_AFTER_SECONDS, `must be at least ${MIN_STALE_AFTER_SECONDS}`)
      .optional()
      .describe(
        "Events older than this when seen (a backlog after an outage) are recorded and summed up once, not alerted one by one.",
      ),
    offlineForMinutes: z
      .number()
      .int()
      .min(1)
      .max(MAX_OFFLINE_MINUTES)
      .optional()
      .describe(
        "With Offline in `events`: alert only if the device is still offline this many minutes after the event.",
      ),
    evidence: evidenceSchema
      .optional()
      .describe("The video to fetch for each alert and keep in its claim pack."),
    // The spec shows no memo format.
    speedLimitKmh: z
      .number()
      .positive()
      .max(300)
      .optional()
      .describe("The limit an OverSpeed alert quotes when the event's memo states none."),
    // Copied onto each alert record when it fires, so that a later change of the rule leaves alerts already out alone.
    escalate: escalationPolicySchema
      .optional()
      .describe("Re-sends an alert nobody acknowledged to the stage's escalation levels."),
  })
  .refine((rule) => rule.offlineForMinutes === undefined || rule.events.includes(EVENT_CODES.Offline), {
    message: `is only allowed when "events" includes Offline (${EVENT_CODES.Offline})`,
    path: ["offlineForMinutes"],
    when: whenFieldsValid("events", "offlineForMinutes"),
  })
  .transform(({ events, ...rule }) => ({ ...rule, eventCodes: [...new Set(events)] }));

export type RuleInput = z.input<typeof ruleSchema>;
export type Rule = z.output<typeof ruleSchema>;

/** Reports every repeated id at the later rule's path, naming the first rule that used it. */
function reportDuplicateIds(rules: readonly unknown[], ctx: z.core.$RefinementCtx) {
  const firstIndexById = new Map<string, number>();
  rules.forEach((rule, index) => {
    // The check also runs when some rules are invalid, so a rule may not even be an object here.
    const id = typeof rule === "object" && rule !== null && "id" in rule ? rule.id : undefined;
    if (typeof id !== "string") return;
    const first = firstIndexById.get(id);
    if (first === undefined) {
      firstIndexById.set(id, index);
    } else {
      ctx.addIssue({
        code: "custom",
        input: id,
        path: ["rules", index, "id"],
        message: `duplicate rule id ${JSON.stringify(id)} (first used by rules.${first})`,
      });
    }
  });
}

/**
 * A rules file: `{ "rules": [ ... ] }`. Empty lists are refused: a file that alerts on nothing is
 * far more likely a mistake than a wish (disable rules with `"enabled": false` instead).
 */
export const rulesFileSchema = z
  .strictObject({
    ...schemaKeyField,
    rules: z
      .array(ruleSchema)
      .min(1, "must contain at least one rule")
      .describe("The alert rules, each with its own id."),
  })
  .superRefine((file, ctx) => reportDuplicateIds(file.rules, ctx), {
    when: (payload) =>
      typeof payload.value === "object" &&
      payload.value !== null &&
      "rules" in payload.value &&
      Array.isArray(payload.value.rules),
  });

export type RulesFileInput = z.input<typeof rulesFileSchema>;
