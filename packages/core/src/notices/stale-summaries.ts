import { routableOf } from "../alerts/delivery.js";
import type { AlertPublisher, AlertRecords } from "../alerts/ports.js";
import type { AlertRecord } from "../alerts/record.js";
import type { Observer } from "../observer.js";
import type { Group, GroupsFile } from "../routing/groups-schema.js";
import { matchingGroups } from "../routing/match.js";
import { UNROUTED_RECIPIENT } from "../routing/route.js";
import { parseAlertId } from "../share/alert-id.js";
import { expiresAfterDays } from "../store/keys.js";
import type { NoticeClaims } from "./claims.js";
import { deliverOnce, NOTICE_CLAIM_LEASE_MS, type NoticeMessage, noticeId } from "./deliver-once.js";
import { CLAIM_RETENTION_DAYS, emailRecipients, groupZone } from "./dependencies.js";
import { type LinkOf, linksOf } from "./links.js";
import { noticeMessages } from "./message.js";
import type { StaleSummaryStore } from "./stale-store.js";
import { staleSummaryText } from "./stale-summary-text.js";
import { emptyTally, type StaleTally, tallied, UNROUTED_TALLY } from "./stale-tally.js";

/** The clock of a poll: its business time, and whether its deadline has passed. */
export interface PollClock {
  now: () => number;
  pastDeadline: () => boolean;
}

/**
 * What the poller does about stale alerts beyond recording them: it counts each chunk's as the
 * cursor passes them, and once the account has caught up, tells the groups they would have gone to
 * of them in one summary per catch-up (however many runs it took), instead of nothing.
 */
export interface StaleSummaries {
  /**
   * Counts the stale records of a chunk's window, whose serial numbers run through `through`, into
   * the open summary of each group that selects them: each once, a replayed chunk included.
   */
  note(account: string, window: readonly AlertRecord[], through: bigint): Promise<void>;
  /** The account has caught up at `cursor`: closes the open summary and tells its groups, once each. */
  sendOwed(account: string, cursor: bigint, clock: PollClock): Promise<void>;
}

export interface StaleSummaryDependencies {
  store: StaleSummaryStore;
  claims: NoticeClaims;
  /** The alerts topic: each message's `to` attribute picks its recipient's subscription. */
  publisher: AlertPublisher;
  /** The listed alerts' records, for their lines. */
  alerts: Pick<AlertRecords, "get">;
  groups: GroupsFile;
  /** FLEET_TIME_ZONE: a group's zone unless it names its own, and the ops' zone. */
  fleetTimeZone: string;
  /** Incident links in the summary; absent without PUBLIC_BASE_URL and SHARE_LINK_SECRET. */
  linkOf?: LinkOf;
  observer: Observer;
  /**
   * The real clock its claims are timed on (notices/deliver-once.ts), never the poll's business
   * clock, which runs fast in the local mode.
   */
  wallClock: () => number;
}

/** Stale summaries kept in the table and sent by email to the alerts topic, as the other notices. */
export class StaleSummaryNotices implements StaleSummaries {
  /**
   * Per account, the cursor at which this container last found nothing owed: a poll that caught up
   * there again, having seen no stale record, reads nothing (most polls of a warm container). Any
   * tally written since by another run moved the cursor past it, or is found again by the replay
   * that brings its chunk back here.
   */
  readonly #nothingOwedAt = new Map<string, bigint>();

  constructor(private readonly deps: StaleSummaryDependencies) {}

  async note(account: string, window: readonly AlertRecord[], through: bigint): Promise<void> {
    const stale = window.filter((record) => record.status === "stale");
    if (stale.length === 0) return;
    this.#nothingOwedAt.delete(account);
    const { store } = this.deps;
    const head = await store.head(account);
    const tallies = new Map((await store.tallies(account, head.open)).map((tally) => [tally.group, tally]));
    const byGroup = new Map<string, AlertRecord[]>();
    for (const record of stale) {
      for (const group of this.#groupsOf(record)) {
        const records = byGroup.get(group) ?? [];
        records.push(record);
        byGroup.set(group, records);
      }
    }
    // Each group's tally on its own: a crash between two leaves each complete to its own chunk end.
    await Promise.all(
      [...byGroup].map(async ([group, records]) => {
        const before = tallies.get(group);
        const after = tallied(before ?? emptyTally(head, group), records, through);
        if (after && !(await store.putTally(account, after, before?.notedThrough)))
          throw new Error(
            `the stale tally of ${group} moved under this run: the next run counts its chunk again`,
          );
      }),
    );
  }

  async sendOwed(account: string, cursor: bigint, clock: PollClock): Promise<void> {
    if (this.#nothingOwedAt.get(account) === cursor) return;
    this.#nothingOwedAt.delete(account);
    const { store } = this.deps;
    const head = await store.head(account);
    // A summary closed by a run that stopped before it told every group: told first.
    if (head.sending !== undefined) {
      const closed = await store.tallies(account, head.sending);
      if (!(await this.#send(account, head.sending, closed, clock))) return;
      await store.sent(account, head.sending);
    }
    const open = await store.tallies(account, head.open);
    if (open.length > 0) {
      if (clock.pastDeadline()) return;
      if (!(await store.close(account, { ...head, sending: undefined }, cursor))) return;
      if (!(await this.#send(account, head.open, open, clock))) return;
      await store.sent(account, head.open);
    }
    this.#nothingOwedAt.set(account, cursor);
  }

  /** Tells every group of a closed summary; false when one is left for a later run. */
  async #send(account: string, summary: number, tallies: readonly StaleTally[], clock: PollClock) {
    const { store, claims, publisher, observer } = this.deps;
    let all = true;
    for (const tally of tallies) {
      if (clock.pastDeadline()) return false;
      const recipients = this.#recipientsOf(tally);
      const outcome = await deliverOnce(
        {
          id: noticeId("stale-summary", account, summary, tally.group),
          key: store.claimKey(account, summary, tally.group),
          expiresAt: expiresAfterDays(clock.now(), CLAIM_RETENTION_DAYS),
          leaseMs: NOTICE_CLAIM_LEASE_MS,
        },
        () => this.#messages(account, tally, recipients, clock.now()),
        { claims, publisher, now: clock.now, wallClock: this.deps.wallClock },
      );
      if (outcome === "busy") all = false;
      if (outcome === "sent")
        observer.observe({
          type: "stale-summary-sent",
          account,
          summary,
          ...(tally.group !== UNROUTED_TALLY && { group: tally.group }),
          alerts: tally.total,
          byRule: tally.byRule,
          recipients: recipients.length,
        });
    }
    return all;
  }

  async #messages(
    account: string,
    tally: StaleTally,
    recipients: readonly string[],
    nowMs: number,
  ): Promise<NoticeMessage[]> {
    if (recipients.length === 0) return [];
    const ids = tally.listed.map((alert) => alert.alertId);
    const [records, links] = await Promise.all([
      Promise.all(
        ids.map((id) => {
          const { serialno, ruleId } = parseAlertId(id);
          return this.deps.alerts.get(account, serialno, ruleId);
        }),
      ),
      linksOf(this.deps.linkOf, ids, nowMs),
    ]);
    const group = this.#groupNamed(tally.group);
    return noticeMessages(
      "stale-summary",
      recipients,
      staleSummaryText({
        account,
        group: tally.group === UNROUTED_TALLY ? undefined : tally.group,
        zone: group ? groupZone(group, this.deps.fleetTimeZone) : this.deps.fleetTimeZone,
        tally,
        records,
        links,
      }),
    );
  }

  /** The groups whose selectors match the alert, as its route would have had them; none: the ops. */
  #groupsOf(record: AlertRecord): string[] {
    const groups = matchingGroups(this.deps.groups.groups, routableOf(record)).map((group) => group.name);
    return groups.length > 0 ? groups : [UNROUTED_TALLY];
  }

  /** A group's email recipients; the ops' for the unrouted tally and for a group no longer in the file. */
  #recipientsOf(tally: StaleTally): string[] {
    const group = this.#groupNamed(tally.group);
    return group ? emailRecipients(group) : [UNROUTED_RECIPIENT];
  }

  #groupNamed(name: string): Group | undefined {
    return name === UNROUTED_TALLY ? undefined : this.deps.groups.groups.find((group) => group.name === name);
  }
}
