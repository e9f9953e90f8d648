import * as z from "zod";
import type { AlertRecord } from "../alerts/record.js";
import { SEVERITIES, severitySchema } from "../rules/schema.js";

/** The incident links a group's stale summary lists at most; the rest are counted ("and N more"). */
export const STALE_SUMMARY_LINKS = 20;

/**
 * The tally of the stale alerts no group selects: their summary goes to the ops' emails, as such an
 * alert itself would have (routing/route.ts, `unrouted`). Not a group name (those start with a
 * letter or digit: routing/groups-schema.ts).
 */
export const UNROUTED_TALLY = "~unrouted";

const serialDigits = z
  .string()
  .regex(/^\d+$/)
  .transform((digits) => BigInt(digits));

/**
 * Where an account's stale summaries stand (pk keys.account, sk keys.staleSummary): the number of
 * the summary the poller adds to, the cursor it was opened at, and the number of one closed at a
 * catch-up whose groups are not all told yet. Absent: summary 1 is open, from the start.
 */
export const staleHeadItemSchema = z.object({
  open: z.number().int().min(1),
  /** The cursor when it was opened: every stale alert up to it was counted in an earlier summary. */
  openedAfter: serialDigits,
  sending: z.number().int().min(1).optional(),
});
export type StaleHead = z.output<typeof staleHeadItemSchema> & {
  /** Whether the head item exists (a first close creates it). */
  stored: boolean;
};

export const FIRST_STALE_HEAD: StaleHead = { open: 1, openedAfter: 0n, stored: false };

/**
 * One group's tally in one summary (pk keys.account, sk keys.staleTally(summary, group)): counts per
 * rule and the alerts to list, kept as the poller goes, so that the summary never reads every stale
 * alert of a catch-up. `notedThrough` is the chunk end the tally is complete to: a chunk replayed
 * after a crash adds only records past it, so nothing is counted twice. Once the summary is closed,
 * the notice's claim (notices/claims.ts) goes on the same item.
 */
export const staleTallyItemSchema = z.object({
  summary: z.number().int().min(1),
  /** The group's name, or UNROUTED_TALLY. */
  group: z.string(),
  notedThrough: serialDigits,
  total: z.number().int().min(0),
  byRule: z.record(z.string(), z.number().int()),
  /** The first alerts to list with their links: the most severe first, each severity in event order. */
  listed: z.array(z.object({ alertId: z.string(), severity: severitySchema })).max(STALE_SUMMARY_LINKS),
});
export type StaleTally = z.output<typeof staleTallyItemSchema>;

/** A group's tally before its first stale alert of the summary. */
export function emptyTally(head: StaleHead, group: string): StaleTally {
  return { summary: head.open, group, notedThrough: head.openedAfter, total: 0, byRule: {}, listed: [] };
}

/**
 * The tally with a chunk's stale records of the group added (pure): those past `notedThrough` only,
 * in table order, which then stands at the chunk's end. Undefined when none is new (a replay of a
 * chunk the tally holds already).
 */
export function tallied(
  tally: StaleTally,
  records: readonly Pick<AlertRecord, "alertId" | "serialno" | "ruleId" | "severity">[],
  through: bigint,
): StaleTally | undefined {
  const fresh = records.filter((record) => record.serialno > tally.notedThrough);
  if (fresh.length === 0) return undefined;
  const byRule = { ...tally.byRule };
  for (const { ruleId } of fresh) byRule[ruleId] = (byRule[ruleId] ?? 0) + 1;
  const rank = (severity: (typeof SEVERITIES)[number]) => SEVERITIES.indexOf(severity);
  // A stable sort: the earlier alerts, listed already, stay before the new ones of their severity.
  const listed = [
    ...tally.listed,
    ...fresh.map(({ alertId, severity }) => ({ alertId, severity: severitySchema.parse(severity) })),
  ]
    .sort((a, b) => rank(b.severity) - rank(a.severity))
    .slice(0, STALE_SUMMARY_LINKS);
  return {
    ...tally,
    notedThrough: through > tally.notedThrough ? through : tally.notedThrough,
    total: tally.total + fresh.length,
    byRule,
    listed,
  };
}
