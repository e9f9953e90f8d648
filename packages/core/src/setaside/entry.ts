import * as z from "zod";

/**
 * The steps of an alert's way out at which AWS can refuse one record for good, for what it holds
 * (its content, its size) rather than for a throttle or an outage that passes.
 */
export const SET_ASIDE_STEPS = [
  /** The alert record itself: DynamoDB refuses an item over 400 KB. */
  "record",
  /** The alert's messages: SNS refused them. */
  "publish",
  "evidence-job",
  "webhook-job",
  "escalation-job",
  /** The delayed message that confirms an Offline event. */
  "offline-check",
] as const;
export type SetAsideStep = (typeof SET_ASIDE_STEPS)[number];

/**
 * One record that a step set aside: no retry could make AWS take it, so waiting for it would stop
 * every later event of the account. What it is (ids only: the content was the problem) and why.
 */
export const setAsideEntrySchema = z.object({
  account: z.string(),
  /** The event's serial number, as digits. */
  serialno: z.string().regex(/^\d+$/),
  deviceid: z.string(),
  ruleId: z.string(),
  /** The alert's id, where the step had an alert (not an Offline check). */
  alertId: z.string().optional(),
  step: z.enum(SET_ASIDE_STEPS),
  /** The webhook, Slack or Teams target of a webhook job. */
  targetId: z.string().optional(),
  /** What AWS (or our own check of its limit) said. */
  reason: z.string(),
});
export type SetAsideEntry = z.output<typeof setAsideEntrySchema>;

/** As kept in the table: when it was first set aside, and when ops were told. */
export const storedSetAsideSchema = setAsideEntrySchema.extend({
  setAsideAtMs: z.number(),
  /** When telling ops of it was claimed, on the wall clock (set-aside.ts); a lapsed claim is taken over. */
  tellClaimedAtMs: z.number().optional(),
  toldAtMs: z.number().optional(),
});
export type StoredSetAside = z.output<typeof storedSetAsideSchema>;

/** What names an entry, as its item's sort key does: a replay's entry of the same record is the same. */
export function setAsideIdentity(entry: SetAsideEntry): string {
  return [entry.account, entry.serialno, entry.ruleId, entry.step, entry.targetId ?? ""].join("#");
}

/** What an entry names of an alert record (its keys and device). */
export interface AlertKeys {
  account: string;
  serialno: bigint;
  deviceid: string;
  ruleId: string;
  alertId: string;
}

/** The entry that sets an alert's `step` aside. */
export function setAsideEntryOf(
  alert: AlertKeys,
  step: SetAsideStep,
  reason: string,
  targetId?: string,
): SetAsideEntry {
  return {
    account: alert.account,
    serialno: alert.serialno.toString(),
    deviceid: alert.deviceid,
    ruleId: alert.ruleId,
    alertId: alert.alertId,
    step,
    reason,
    ...(targetId !== undefined && { targetId }),
  };
}
