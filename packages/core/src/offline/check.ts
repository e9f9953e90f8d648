import * as z from "zod";

/**
 * The delayed message that confirms, when it comes due, that a device is still offline. SQS delays
 * a message by 15 minutes at most: a longer wait is re-sent until `dueAtMs`.
 */
export const offlineCheckJobSchema = z.object({
  version: z.literal(1),
  account: z.string(),
  ruleId: z.string(),
  deviceid: z.string(),
  serialno: z.string().regex(/^\d+$/),
  eventtime: z.iso.datetime({ offset: true }),
  dueAtMs: z.number().int(),
});
export type OfflineCheckJob = z.output<typeof offlineCheckJobSchema>;
