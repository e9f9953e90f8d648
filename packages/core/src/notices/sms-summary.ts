import type { GroupsFile } from "../routing/groups-schema.js";
import { smsHourItemSchema, utcHourIso } from "../routing/items.js";
import { wallClock } from "../routing/local-time.js";
import { recipientId } from "../routing/recipients.js";
import { getItem } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import { type DeliveryOutcome, deliverOnce, NOTICE_CLAIM_LEASE_MS, noticeId } from "./deliver-once.js";
import { CLAIM_RETENTION_DAYS, groupZone, type NoticesDependencies, SETTLE_MS } from "./dependencies.js";
import { count } from "./format.js";
import { noticeMessages } from "./message.js";

const HOUR_MS = 3_600_000;
/** Hours that ended this many hours back still get their summary (a run missed). */
const LOOK_BACK_HOURS = 3;
/**
 * The summary's JSON body names at most this many of the alerts not texted, and counts them all: the
 * hour's item may hold thousands of ids (up to DynamoDB's 400 KB), more than one SNS message carries.
 */
export const SMS_SUMMARY_MAX_LISTED = 100;

/** Each SMS number of the groups file once, with the zone of the first group that lists it. */
export function smsRecipients(groups: GroupsFile, fleetTimeZone: string): { id: string; zone: string }[] {
  const zones = new Map<string, string>();
  for (const group of groups.groups) {
    for (const number of group.sms) {
      const id = recipientId("sms", number);
      if (!zones.has(id)) zones.set(id, groupZone(group, fleetTimeZone));
    }
  }
  return [...zones].map(([id, zone]) => ({ id, zone }));
}

/**
 * For each SMS recipient and each of the last ended UTC hours in which a cap kept alerts from
 * being texted: one SMS saying how many, sent once (the claim is on the hour's own item).
 */
export async function sendSmsSummaries(
  recipient: { id: string; zone: string },
  deps: NoticesDependencies,
  nowMs: number,
): Promise<DeliveryOutcome[]> {
  const outcomes: DeliveryOutcome[] = [];
  const lastEnded = Math.floor((nowMs - SETTLE_MS) / HOUR_MS) * HOUR_MS - HOUR_MS;
  for (let hour = 0; hour < LOOK_BACK_HOURS; hour++) {
    const startMs = lastEnded - hour * HOUR_MS;
    const key = { pk: keys.recipient(recipient.id), sk: keys.smsHour(utcHourIso(startMs)) };
    const item = await getItem(deps.table, key.pk, key.sk);
    const hourItem = item && smsHourItemSchema.parse(item);
    const capped = hourItem?.capped;
    if (!capped?.size || hourItem?.summarySentAt !== undefined) continue;
    const text = `fleet-alerts: ${count(capped.size, "more alert")} ${clock(recipient.zone, startMs)}-${clock(recipient.zone, startMs + HOUR_MS)} not texted (SMS limit per hour). See your email.`;
    outcomes.push(
      await deliverOnce(
        {
          // Per recipient with its `to`; the id names the hour alone, so that logs never hold a recipient.
          id: noticeId("sms-summary", utcHourIso(startMs)),
          key,
          expiresAt: expiresAfterDays(nowMs, CLAIM_RETENTION_DAYS),
          leaseMs: NOTICE_CLAIM_LEASE_MS,
        },
        async () =>
          noticeMessages("sms-summary", [recipient.id], {
            subject: "fleet-alerts: alerts not texted",
            email: text,
            sms: text,
            body: {
              hour: new Date(startMs).toISOString(),
              notTextedTotal: capped.size,
              notTexted: [...capped].sort().slice(0, SMS_SUMMARY_MAX_LISTED),
            },
          }),
        deps,
      ),
    );
  }
  return outcomes;
}

function clock(zone: string, epochMs: number): string {
  return wallClock(zone, epochMs).time;
}
