import type { Group } from "../routing/groups-schema.js";
import { type HeldItem, heldItemSchema } from "../routing/items.js";
import { quietWindowAt } from "../routing/quiet-window.js";
import { itemsWithPrefix } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import { type DeliveryOutcome, deliverOnce, NOTICE_CLAIM_LEASE_MS, noticeId } from "./deliver-once.js";
import {
  CLAIM_RETENTION_DAYS,
  emailRecipients,
  groupZone,
  type NoticesDependencies,
  SETTLE_MS,
} from "./dependencies.js";
import { alertLine, count, hoursText, localDateTime } from "./format.js";
import { linksOf } from "./links.js";
import { type NoticeText, noticeMessages } from "./message.js";
import { OldestFirst } from "./oldest-first.js";
import { firstSortKeyBetween } from "./query.js";

/** Windows that ended this long ago are still summarised (a run missed, a day's outage). */
const LOOK_BACK_MS = 2 * 86_400_000;
/**
 * A summary lists at most this many held alerts, the oldest, and counts the rest: like the digest,
 * an email must stay readable, and a night of any length must fit one SNS message (100 lines with
 * their links are a few tens of kilobytes of its 256).
 */
export const QUIET_SUMMARY_MAX_LISTED = 100;

/**
 * One summary email per group recipient for each quiet window that has ended (and settled) with
 * held alerts. The windows come from the held items themselves, not from the group's settings: a
 * changed or removed quiet-hours setting still gets its held alerts delivered.
 */
export async function sendQuietSummaries(
  group: Group,
  deps: NoticesDependencies,
  nowMs: number,
): Promise<DeliveryOutcome[]> {
  const recipients = emailRecipients(group);
  if (recipients.length === 0) return [];
  const pk = keys.group(group.name);
  const outcomes: DeliveryOutcome[] = [];
  for await (const windowEndIso of endedWindows(deps, pk, nowMs)) {
    outcomes.push(
      await deliverOnce(
        {
          id: noticeId("quiet-summary", group.name, windowEndIso),
          key: { pk, sk: keys.quietSummary(windowEndIso) },
          expiresAt: expiresAfterDays(nowMs, CLAIM_RETENTION_DAYS),
          leaseMs: NOTICE_CLAIM_LEASE_MS,
        },
        async () => {
          const held = new OldestFirst<HeldItem>(QUIET_SUMMARY_MAX_LISTED);
          for await (const item of itemsWithPrefix(deps.table, pk, `${keys.heldPrefix}${windowEndIso}#`))
            held.add(heldItemSchema.parse(item));
          const links = await linksOf(
            deps.linkOf,
            held.listed.map((item) => item.alertId),
            deps.now(),
          );
          return noticeMessages(
            "quiet-summary",
            recipients,
            quietSummaryText(group, deps, Date.parse(windowEndIso), held, links),
          );
        },
        deps,
      ),
    );
  }
  return outcomes;
}

/**
 * The end of every window with held alerts that ended (and settled) within the look-back, oldest
 * first. One item is read per window: the next read starts past every key of the window found, so
 * a night of thousands of held alerts costs a query per window, not their whole list.
 */
async function* endedWindows(
  deps: Pick<NoticesDependencies, "table">,
  pk: string,
  nowMs: number,
): AsyncGenerator<string> {
  // "~" sorts after every alert id character: past the last key of a window.
  const to = `${keys.heldPrefix}${new Date(nowMs - SETTLE_MS).toISOString()}#~`;
  let from = `${keys.heldPrefix}${new Date(nowMs - LOOK_BACK_MS).toISOString()}`;
  while (from <= to) {
    const sk = await firstSortKeyBetween(deps.table, pk, { from, to });
    if (sk === undefined) return;
    const windowEndIso = sk.slice(keys.heldPrefix.length).split("#")[0] ?? "";
    yield windowEndIso;
    from = `${keys.heldPrefix}${windowEndIso}#~`;
  }
}

function quietSummaryText(
  group: Group,
  deps: Pick<NoticesDependencies, "fleetTimeZone">,
  windowEndMs: number,
  held: OldestFirst<HeldItem>,
  links: readonly (string | undefined)[],
): NoticeText {
  const zone = groupZone(group, deps.fleetTimeZone);
  // The window as the group's settings give it now; if they changed since, only its end is known.
  const window = group.quietHours && quietWindowAt(group.quietHours, zone, windowEndMs - 1);
  const startMs = window?.endMs === windowEndMs ? window.startMs : undefined;
  const span =
    startMs === undefined
      ? `until ${localDateTime(zone, windowEndMs)} (${zone})`
      : `${localDateTime(zone, startMs)} to ${localDateTime(zone, windowEndMs)} (${zone}, ${hoursText(windowEndMs - startMs)})`;
  const lines = held.listed.flatMap((item, index) => {
    const link = links[index];
    return [`- ${alertLine(zone, item)}`, ...(link ? [`  ${link}`] : [])];
  });
  const more = held.count - held.listed.length;
  const alerts = count(held.count, "alert");
  return {
    subject: `Quiet hours: ${alerts} held for ${group.name}`,
    email: [
      `${alerts} ${held.count === 1 ? "was" : "were"} held for group "${group.name}" during its quiet hours, ${span}.`,
      "",
      ...lines,
      ...(more > 0 ? [`  ... and ${more} more.`] : []),
      "",
      ...(group.quietHours
        ? [`Alerts of severity ${group.quietHours.holdBelow} and above went out at once.`]
        : []),
    ].join("\n"),
    sms: `fleet-alerts: ${alerts} held in quiet hours for ${group.name}. See your email.`,
    body: {
      group: group.name,
      windowEnd: new Date(windowEndMs).toISOString(),
      ...(startMs !== undefined && { windowStart: new Date(startMs).toISOString() }),
      total: held.count,
      // The oldest QUIET_SUMMARY_MAX_LISTED, as the email lists them; `total` counts them all.
      alerts: held.listed.map((item) => item.alertId),
    },
  };
}
