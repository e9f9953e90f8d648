import { publishedBody } from "../alerts/published-body.js";
import type { AlertRecord } from "../alerts/record.js";
import { alertLine, count } from "./format.js";
import type { NoticeText } from "./message.js";
import type { StaleTally } from "./stale-tally.js";

export interface StaleSummaryInput {
  account: string;
  /** The group told; undefined for the ops' emails, told of the stale alerts no group selects. */
  group: string | undefined;
  /** The zone the group reads times in. */
  zone: string;
  tally: StaleTally;
  /** The records of `tally.listed`, in its order (undefined: not found), and their incident links. */
  records: readonly (AlertRecord | undefined)[];
  links: readonly (string | undefined)[];
}

/**
 * What a catch-up held back as stale, for one group: the count per rule, then the alerts listed
 * with their incident links (the most severe first), and how many more. Device texts go through
 * `alertLine` (one line each, text/display.ts); rule, group and account ids are the configuration's.
 */
export function staleSummaryText(input: StaleSummaryInput): NoticeText {
  const { account, group, tally } = input;
  const alerts = count(tally.total, "alert");
  const to = group === undefined ? "" : ` for ${group}`;
  const more = tally.total - tally.listed.length;
  const lines = tally.listed.flatMap(({ alertId }, index) => {
    const record = input.records[index];
    const link = input.links[index];
    const line = record
      ? alertLine(input.zone, { ...record, vehicleid: publishedBody(record)?.vehicleid ?? undefined })
      : `alert ${alertId}`;
    return [`- ${line}`, ...(link ? [`  ${link}`] : [])];
  });
  const email = [
    `${alerts} of account ${account} ${tally.total === 1 ? "was" : "were"} not sent${group === undefined ? "" : ` to group "${group}"`}: ` +
      "each event was older than its rule's staleness limit when it was read (a backlog after an outage, " +
      "or a device that uploaded late). Each is recorded, and its evidence is collected where its rule asks for video.",
    "",
    "By rule:",
    ...Object.entries(tally.byRule)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([ruleId, n]) => `  ${ruleId}: ${n}`),
    "",
    more > 0
      ? `The ${tally.listed.length} most severe, with their incident pages:`
      : "The alerts, with their incident pages:",
    ...lines,
    ...(more > 0 ? [`  ... and ${more} more.`] : []),
  ].join("\n");
  return {
    subject: `Held back as stale: ${alerts} of account ${account}${to}`,
    email,
    sms: `fleet-alerts: ${alerts} of account ${account} held back as stale${to}. See your email.`,
    body: {
      account,
      group: group ?? null,
      summary: tally.summary,
      total: tally.total,
      byRule: tally.byRule,
      listed: tally.listed.map((alert) => alert.alertId),
    },
  };
}
