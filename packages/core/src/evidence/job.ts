import { z } from "zod";

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
  channels: z.array(z.number().int().min(1).max(32)).min(1),
  secondsBefore: z.number().int().nonnegative(),
  secondsAfter: z.number().int().nonnegative(),
});
export type EvidenceJob = z.output<typeof evidenceJobSchema>;
