import type { Group } from "../routing/groups-schema.js";
import { type HeldItem, heldItemSchema } from "../routing/items.js";
import { quietWindowAt } from "../routing/quiet-window.js";
import { itemsWithPrefix } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import { type DeliveryOutcome, deliverOnce } from "./deliver-once.js";
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
import { itemsBetween } from "./query.js";

/** Windows that ended this long ago are still summarised (a run missed, a day's outage). */
const LOOK_BACK_MS = 2 * 86_400_000;

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
  const endedBy = new Date(nowMs - SETTLE_MS).toISOString();
  const held = await itemsBetween(
    deps.table,
    pk,
    `${keys.heldPrefix}${new Date(nowMs - LOOK_BACK_MS).toISOString()}`,
    `${keys.heldPrefix}${endedBy}#~`, // "~" sorts after every alert id character
  );
  const windowEnds = [...new Set(held.map((item) => String(item.sk).split("#")[1] ?? ""))];
  const outcomes: DeliveryOutcome[] = [];
  for (const windowEndIso of windowEnds.filter((iso) => iso <= endedBy)) {
    outcomes.push(
      await deliverOnce(
        { pk, sk: keys.quietSummary(windowEndIso) },
        expiresAfterDays(nowMs, CLAIM_RETENTION_DAYS),
        async () => {
          const items: HeldItem[] = [];
          for await (const item of itemsWithPrefix(deps.table, pk, `${keys.heldPrefix}${windowEndIso}#`))
            items.push(heldItemSchema.parse(item));
          items.sort((a, b) => a.eventtime.localeCompare(b.eventtime));
          const links = await linksOf(
            deps.linkOf,
            items.map((item) => item.alertId),
            deps.now(),
          );
          return noticeMessages(
            "quiet-summary",
            recipients,
            quietSummaryText(group, deps, Date.parse(windowEndIso), items, links),
          );
        },
        deps,
      ),
    );
  }
  return outcomes;
}

function quietSummaryText(
  group: Group,
  deps: Pick<NoticesDependencies, "fleetTimeZone">,
  windowEndMs: number,
  items: readonly HeldItem[],
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
  const lines = items.flatMap((item, index) => {
    const link = links[index];
    return [`- ${alertLine(zone, item)}`, ...(link ? [`  ${link}`] : [])];
  });
  const held = count(items.length, "alert");
  return {
    subject: `Quiet hours: ${held} held for ${group.name}`,
    email: [
      `${held} ${items.length === 1 ? "was" : "were"} held for group "${group.name}" during its quiet hours, ${span}.`,
      "",
      ...lines,
      "",
      ...(group.quietHours
        ? [`Alerts of severity ${group.quietHours.holdBelow} and above went out at once.`]
        : []),
    ].join("\n"),
    sms: `fleet-alerts: ${held} held in quiet hours for ${group.name}. See your email.`,
    body: {
      group: group.name,
      windowEnd: new Date(windowEndMs).toISOString(),
      ...(startMs !== undefined && { windowStart: new Date(startMs).toISOString() }),
      alerts: items.map((item) => item.alertId),
    },
  };
}
