import type { StructuredLogger } from "../logging.js";
import type { Observer } from "../observer.js";
import type { JobQueue } from "../queue/ports.js";
import type { RoutableAlert } from "../routing/match.js";
import type { Route } from "../routing/route.js";
import type { AlertRouter } from "../routing/route-alert.js";
import { severitySchema } from "../rules/schema.js";
import { type SetAsideEntry, setAsideEntryOf } from "../setaside/entry.js";
import type { SetAside } from "../setaside/set-aside.js";
import type { AlertLinks } from "./alert-links.js";
import type { DeliveryLedger, PublishedAlert } from "./delivery-ledger.js";
import { fillLink, hasLinkSlot } from "./incident-link.js";
import type { AlertMessage } from "./message.js";
import type { AlertPublisher, AlertRecords, PublishOutcome } from "./ports.js";
import { publishedBody } from "./published-body.js";
import { type AlertRecord, alertIdOf } from "./record.js";
import type { AlertBody } from "./render/json.js";

export interface DeliveryDependencies {
  alerts: AlertRecords;
  publisher: AlertPublisher;
  evidenceQueue: JobQueue;
  /** Where escalation jobs go; absent where escalation is not set up (nothing is scheduled). */
  escalationQueue?: JobQueue;
  /** Decides each alert's route (groups, quiet hours, recipients, SMS caps) before it first goes out. */
  router: AlertRouter;
  /** Where webhook, Slack and Teams jobs go; absent where no target is set up (none is sent). */
  webhookQueue?: JobQueue;
  /** Grants the links of messages rendered with one; absent where PUBLIC_BASE_URL is not set. */
  alertLinks?: AlertLinks;
  /** Keeps what AWS refuses for good (and tells ops), so that the rest goes out. */
  setAside: SetAside;
  logger: StructuredLogger;
  observer: Observer;
  /** The business clock: records' times. */
  now: () => number;
  /** The real clock claims are timed on (Date.now unless set): `now` may be simulated, faster. */
  wallClock?: () => number;
  /** Called between sending an alert's jobs and remembering it, and awaited; tests throw from it to crash there. */
  checkpoint?: (step: "jobs-queued") => void | Promise<void>;
}

/**
 * Publishes the records the ledger says are owed and tells it which went out (a record refused for
 * good is marked failed and set aside). Each is routed first, then claimed (the ledger's claim
 * decides, from its own write, which are still owed: a record another delivery has sent or is
 * sending is left alone), then published. A failure that may pass is thrown, once the ledger knows
 * what did go out, so that the cursor stays and the next run sends the rest. Returns the records as
 * they now stand, so that the next step need not read them again.
 */
export async function deliverAlerts(
  records: readonly AlertRecord[],
  deps: DeliveryDependencies,
  counts: { alertsPublished: number; alertsFailed: number },
  ledger: DeliveryLedger,
): Promise<AlertRecord[]> {
  const owed = records.filter((record) => ledger.owes(record));
  if (owed.length === 0) return [...records];
  const settled = new Map<string, AlertRecord>();
  const byId = new Map(owed.map((record) => [record.alertId, record]));
  const planned = new Map(
    await Promise.all(
      owed.map(async (record) => {
        const route = await routeOf(record, deps);
        // A retry after a partial failure sends only to those who did not get it.
        const to = recipientsOf(route).filter((recipient) => !record.sentTo?.has(recipient));
        return [record.alertId, { route, to, ...(await outgoingOf(record, deps)) }] as const;
      }),
    ),
  );
  // Nothing may stand between the claim and the Publish: what the claim found owed goes out now.
  const pending = await ledger.claim(owed);
  const sending = pending.filter((record) => (planned.get(record.alertId) as Planned).to.length > 0);
  const outcomes: (PublishOutcome | { alertId: string; ok: true; messageId: undefined })[] = [
    ...(sending.length === 0
      ? []
      : await deps.publisher.publish(
          sending.map((record) => {
            const { message, to } = planned.get(record.alertId) as Planned;
            return { alertId: record.alertId, message, to };
          }),
        )),
    // Held by every matching group: no one to send to now, and published all the same (handed on).
    ...pending
      .filter((record) => !sending.includes(record))
      .map((record) => ({ alertId: record.alertId, ok: true as const, messageId: undefined })),
  ];
  let transient: string | undefined;
  const published: PublishedAlert[] = [];
  const failed: Promise<unknown>[] = [];
  const refused: SetAsideEntry[] = [];
  for (const outcome of outcomes) {
    const record = byId.get(outcome.alertId) as AlertRecord;
    const sent = planned.get(outcome.alertId) as Planned;
    const ids = {
      account: record.account,
      alertId: record.alertId,
      serialno: record.serialno.toString(),
      deviceid: record.deviceid,
      rule: record.ruleId,
    };
    if (outcome.ok) {
      const publishedAtMs = deps.now();
      const messageId = outcome.messageId ?? record.snsMessageId;
      published.push({ record, messageId, route: sent.route, publishedAtMs });
      settled.set(record.alertId, {
        ...record,
        status: "published",
        ...(messageId !== undefined && { snsMessageId: messageId }),
        route: sent.route,
        // Escalations count from here (a poller's record keeps the time it was written with).
        publishedAt: record.publishedAt ?? new Date(publishedAtMs).toISOString(),
      });
      counts.alertsPublished++;
      deps.observer.observe({
        type: "alert-published",
        ...ids,
        severity: record.severity,
        // Rendered by render/json.ts from the same schema: read back without a second validation.
        body: JSON.parse(sent.message.default) as AlertBody,
        sms: sent.message.sms,
        ...(sent.link && { link: sent.link }),
        groups: sent.route.groups,
        held: sent.route.held,
        recipients: {
          email: sent.route.email.length,
          sms: sent.route.sms.length,
          smsCapped: sent.route.smsCapped.length,
          targets: sent.route.targets,
        },
      });
    } else if (outcome.permanent) {
      failed.push(deps.alerts.markFailed(record, outcome.reason));
      settled.set(record.alertId, { ...record, status: "failed", failure: outcome.reason });
      counts.alertsFailed++;
      deps.observer.observe({ type: "alert-failed", ...ids, reason: outcome.reason });
      refused.push(setAsideEntryOf(record, "publish", outcome.reason));
    } else {
      failed.push(deps.alerts.markPartlySent(record, sent.route, outcome.sentTo ?? []));
      transient = outcome.reason;
    }
  }
  // The step is over only when every write is done.
  await Promise.all([ledger.published(published), ...failed, deps.setAside.put(refused)]);
  if (transient !== undefined)
    throw new Error(`SNS did not accept every alert; the next run retries: ${transient}`);
  return records.map((record) => settled.get(record.alertId) ?? record);
}

interface Planned extends Outgoing {
  route: Route;
  /** Recipient ids still owed the alert. */
  to: string[];
}

/** Every recipient of a route: its email and SMS recipients' ids (distinct by their prefix). */
function recipientsOf(route: Route): string[] {
  return [...route.email, ...route.sms];
}

/**
 * The record's kept route (an earlier attempt's, partly sent), else a new one. Routed as of the
 * record's creation, so that a replay after a crash decides the same route (route-alert.ts).
 */
function routeOf(record: AlertRecord, deps: DeliveryDependencies): Promise<Route> {
  if (record.route) return Promise.resolve(record.route);
  return deps.router.route(routableOf(record), Date.parse(record.createdAt));
}

/** What a record is routed by: its keys, severity, device, time and message. */
export type RoutableRecord = Pick<
  AlertRecord,
  "account" | "serialno" | "ruleId" | "severity" | "deviceid" | "eventtime" | "message"
>;

/** What the groups' selectors read: the record's keys and the vehicle id of its published body. */
export function routableOf(record: RoutableRecord): RoutableAlert {
  const vehicleid = publishedBody(record)?.vehicleid;
  return {
    alertId: alertIdOf(record.account, record.serialno, record.ruleId),
    account: record.account,
    serialno: record.serialno.toString(),
    ruleId: record.ruleId,
    severity: severitySchema.parse(record.severity),
    deviceid: record.deviceid,
    ...(vehicleid !== null && vehicleid !== undefined && { vehicleid }),
    eventtime: record.eventtime,
  };
}

interface Outgoing {
  message: AlertMessage;
  link?: string;
}

/**
 * The message as it goes out: a link rendered into it gets its token, and its grant, now (the
 * record keeps the message with the slot: the token is never stored). Granted before publishing, so
 * a received link always opens; a replay derives the same token and finds its grant.
 */
async function outgoingOf(record: AlertRecord, deps: DeliveryDependencies): Promise<Outgoing> {
  const message = record.message as AlertMessage;
  if (!hasLinkSlot(message)) return { message };
  if (deps.alertLinks === undefined)
    throw new Error(
      `alert ${record.alertId} was rendered with a link, but no SHARE_LINK_SECRET is set to grant it`,
    );
  const link = await deps.alertLinks.grant(record, deps.now());
  return { message: fillLink(message, link.token), link: link.url };
}
