import * as z from "zod";
import { parseDurationSeconds } from "./duration.js";

// Shorter than 30 s nobody can react; longer than 12 h the alert is history, not an incident.
const MIN_ESCALATION_SECONDS = 30;
const MAX_ESCALATION_SECONDS = 12 * 3600;
/** At most this many levels: also what bounds an incident page's history (a level sent is one line). */
export const MAX_ESCALATION_LEVELS = 3;

const escalationWaitSchema = z
  .string()
  .transform((text, ctx) => {
    const seconds = parseDurationSeconds(text);
    if (seconds === undefined) {
      ctx.addIssue({
        code: "custom",
        message: 'must be a duration such as "90s", "10m", "1h" or "1h30m"',
      });
      return z.NEVER;
    }
    return seconds;
  })
  .pipe(
    z
      .number()
      .min(MIN_ESCALATION_SECONDS, "must be at least 30 s")
      .max(MAX_ESCALATION_SECONDS, "must be at most 12 h"),
  );

/**
 * A rule's escalation: an alert nobody acknowledged within `after` is sent to escalation level 1,
 * after as long again to level 2, and so on up to `levels`. Normalized to whole seconds.
 */
export const escalationPolicySchema = z
  .strictObject({
    after: escalationWaitSchema.describe(
      'The wait before level 1, and between levels: "90s", "10m", "1h" or "1h30m", from 30 s to 12 h.',
    ),
    levels: z
      .number()
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(MAX_ESCALATION_LEVELS, `must be at most ${MAX_ESCALATION_LEVELS}`)
      .describe("How many of the stage's escalation levels the alert goes through."),
  })
  .transform(({ after, levels }) => ({ afterSeconds: after, levels }));

export type EscalationPolicy = z.output<typeof escalationPolicySchema>;
