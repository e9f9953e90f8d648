import * as z from "zod";

/**
 * The delayed message that escalates an alert to `level` if nobody has acknowledged it by then.
 * Versioned, so that a change of shape is seen, not guessed. The wait comes from the alert record's
 * policy (fixed when the alert fired), not from the rule as it is now.
 */
export const escalationJobSchema = z.object({
  version: z.literal(1),
  alertId: z.string(),
  account: z.string(),
  serialno: z.string().regex(/^\d+$/),
  ruleId: z.string(),
  level: z.number().int().min(1),
  afterSeconds: z.number().int().positive(),
  /** When the alert was published: every level is counted from here, not from the level before. */
  firedAtMs: z.number().int(),
});
export type EscalationJob = z.output<typeof escalationJobSchema>;

/** Level N is due N waits after the alert fired. */
export function escalationDueAtMs(job: EscalationJob): number {
  return job.firedAtMs + job.level * job.afterSeconds * 1000;
}
