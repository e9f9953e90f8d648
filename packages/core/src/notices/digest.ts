import { DYNAMODB_MAX_BATCH_GET_KEYS } from "../aws-limits.js";
import type { Group } from "../routing/groups-schema.js";
import { routedItemSchema } from "../routing/items.js";
import { addDays, instantOf, wallClock } from "../routing/local-time.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import { readDigestFacts } from "./alert-records.js";
import { type DeliveryOutcome, deliverOnce, NOTICE_CLAIM_LEASE_MS, noticeId } from "./deliver-once.js";
import {
  CLAIM_RETENTION_DAYS,
  emailRecipients,
  groupZone,
  type NoticesDependencies,
  SETTLE_MS,
} from "./dependencies.js";
import { DigestTally } from "./digest-model.js";
import { digestText } from "./digest-text.js";
import { linksOf } from "./links.js";
import { noticeMessages } from "./message.js";
import { pagesBetween } from "./query.js";
import { recorderSummary } from "./recorder-summary.js";

/**
 * Routed items read per page: one BatchGetItem reads their records' facts, and the page is counted
 * before the next is read, so a day of any number of alerts holds one page (and its facts) at a time.
 */
export const DIGEST_PAGE_ITEMS = DYNAMODB_MAX_BATCH_GET_KEYS;

/** The local date whose digest is due at `nowMs` (its time passed and settled), and its period. */
export function dueDigest(at: string, zone: string, nowMs: number) {
  const today = wallClock(zone, nowMs).date;
  const dueToday = instantOf(zone, today, at);
  const date = dueToday + SETTLE_MS <= nowMs ? today : addDays(today, -1);
  // Local times on consecutive dates: 23 or 25 hours apart across a DST change.
  return { date, fromMs: instantOf(zone, addDays(date, -1), at), toMs: instantOf(zone, date, at) };
}

/**
 * The group's digest of the latest local date whose `digest.at` has passed, once: the alerts routed
 * to the group in the 24 (23, 25) hours before, with their records' evidence and acknowledgement.
 * An outage longer than a day skips a digest rather than send two at once.
 */
export async function sendDigest(
  group: Group,
  deps: NoticesDependencies,
  nowMs: number,
): Promise<DeliveryOutcome | undefined> {
  const recipients = emailRecipients(group);
  if (!group.digest || recipients.length === 0) return undefined;
  const zone = groupZone(group, deps.fleetTimeZone);
  const { date, fromMs, toMs } = dueDigest(group.digest.at, zone, nowMs);
  const pk = keys.group(group.name);
  return deliverOnce(
    {
      id: noticeId("digest", group.name, date),
      key: { pk, sk: keys.digest(date) },
      expiresAt: expiresAfterDays(nowMs, CLAIM_RETENTION_DAYS),
      leaseMs: NOTICE_CLAIM_LEASE_MS,
    },
    async () => {
      // [from, to): an alert routed at exactly `to` sorts after the bare bound, into the next day.
      const range = {
        from: keys.routed(new Date(fromMs).toISOString(), ""),
        to: `${keys.routedPrefix}${new Date(toMs).toISOString()}`,
      };
      const tally = new DigestTally();
      for await (const page of pagesBetween(deps.table, pk, range, DIGEST_PAGE_ITEMS)) {
        const routed = page.map((item) => routedItemSchema.parse(item));
        const facts = await readDigestFacts(deps.table, routed);
        for (const alert of routed) tally.add(alert, facts.get(alert.alertId));
      }
      const model = tally.model();
      const links = await linksOf(
        deps.linkOf,
        model.oldestNotAcknowledged.map((alert) => alert.alertId),
        deps.now(),
      );
      const recorder = deps.recorder && (await recorderSummary(group, deps.recorder, nowMs));
      return noticeMessages(
        "digest",
        recipients,
        digestText({
          group: group.name,
          zone,
          date,
          fromMs,
          toMs,
          model,
          links,
          ...(recorder && { recorder }),
        }),
      );
    },
    deps,
  );
}
