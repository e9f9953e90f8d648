import {
  type AlertPublisher,
  type AlertRecord,
  type AlertRecords,
  alertIdOf,
  type ChunkAlertRecord,
  type ClaimOutcome,
  type EvidenceWaiting,
  type NewAlertRecord,
  type OutgoingAlert,
  type Publication,
  type PublicationClaim,
  type Publications,
  type PublishOutcome,
  tableOrder,
} from "@fleet-alerts/core/alerts";
import { FencedError } from "@fleet-alerts/core/cursor";
import type { Route } from "@fleet-alerts/core/routing";

type Key = Pick<AlertRecord, "account" | "serialno" | "ruleId">;
/** A record as the table holds it: with the publication claim of a delivery, which no reader sees. */
type Stored = AlertRecord & { publishClaim?: { token: string; untilMs: number } };

const keyOf = ({ account, serialno, ruleId }: Key) => `${account}\u0000${serialno}\u0000${ruleId}`;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Alert records in memory, as AlertStore keeps them in DynamoDB: created once (a second write of
 * the same key is refused), moved only from pending, handed out as copies.
 */
export class FakeAlertRecords implements AlertRecords {
  readonly #records = new Map<string, Stored>();

  /** Every record, in table order: what a test would read from the table. */
  all(): AlertRecord[] {
    return [...this.#records.values()].sort(tableOrder).map(handedOut);
  }

  async record(alert: NewAlertRecord, nowMs: number): Promise<boolean> {
    if (this.#records.has(keyOf(alert))) return false;
    const alertId = alertIdOf(alert.account, alert.serialno, alert.ruleId);
    this.#records.set(
      keyOf(alert),
      structuredClone({ ...alert, alertId, createdAt: iso(nowMs), escalatedLevels: 0, escalationsSent: 0 }),
    );
    return true;
  }

  async recordChunk(alerts: readonly ChunkAlertRecord[]): Promise<AlertRecord[]> {
    return alerts.map(({ decidedAtMs, route, ...alert }) => {
      const alertId = alertIdOf(alert.account, alert.serialno, alert.ruleId);
      const record: AlertRecord = {
        ...alert,
        alertId,
        createdAt: iso(decidedAtMs),
        escalatedLevels: 0,
        escalationsSent: 0,
        ...(route && { route, publishedAt: iso(decidedAtMs) }),
        ...(alert.evidence && { evidenceStatus: "pending" as const }),
      };
      this.#records.set(keyOf(alert), structuredClone(record));
      return structuredClone(record);
    });
  }

  async get(account: string, serialno: bigint, ruleId: string): Promise<AlertRecord | undefined> {
    const record = this.#records.get(keyOf({ account, serialno, ruleId }));
    return record && handedOut(record);
  }

  async inWindow(account: string, after: bigint, through: bigint): Promise<AlertRecord[]> {
    return this.all().filter(
      (record) => record.account === account && record.serialno > after && record.serialno <= through,
    );
  }

  async claimPublication(alert: AlertRecord, claim: PublicationClaim): Promise<ClaimOutcome> {
    const record = this.#records.get(keyOf(alert));
    if (record?.status !== "pending") return "settled";
    const held = record.publishClaim;
    if (held && held.untilMs >= claim.nowMs && held.token !== claim.token) return "busy";
    record.publishClaim = { token: claim.token, untilMs: claim.untilMs };
    return "claimed";
  }

  async markPublished(
    alert: AlertRecord,
    messageId: string | undefined,
    nowMs: number,
    route: Route,
  ): Promise<boolean> {
    return this.#fromPending(alert, {
      status: "published",
      ...(messageId !== undefined && { snsMessageId: messageId }),
      publishedAt: iso(nowMs),
      route,
    });
  }

  async markPartlySent(alert: AlertRecord, route: Route, sentTo: readonly string[]): Promise<void> {
    const record = this.#records.get(keyOf(alert));
    if ((record?.status !== "pending" && record?.status !== "published") || sentTo.length === 0) return;
    record.route ??= route;
    record.sentTo = new Set([...(record.sentTo ?? []), ...sentTo]);
  }

  async markFailed(alert: AlertRecord, failure: string): Promise<boolean> {
    return this.#from(alert.chunkFrom === undefined ? "pending" : "published", alert, {
      status: "failed",
      failure,
    });
  }

  async markHandedOn(alert: AlertRecord, nowMs: number): Promise<void> {
    const record = this.#records.get(keyOf(alert));
    if (!record) throw new Error(`no alert record ${alert.alertId}`);
    record.handedOnAt = iso(nowMs);
    if (record.evidence) record.evidenceStatus ??= "pending";
  }

  async setEvidence(
    alert: Key,
    outcome: { status: "stored" | "unavailable" | "failed"; keys?: string[]; error?: string },
  ): Promise<void> {
    const record = this.#records.get(keyOf(alert));
    if (!record) throw new Error(`no alert record ${alert.serialno}/${alert.ruleId}`);
    Object.assign(record, {
      evidenceStatus: outcome.status,
      evidenceKeys: outcome.keys ?? [],
      evidenceError: outcome.error ?? "",
    });
  }

  async setEvidenceWaiting(alert: Key, waiting: EvidenceWaiting): Promise<boolean> {
    const record = this.#records.get(keyOf(alert));
    if (!record || record.evidenceStatus === "stored" || record.evidenceStatus === "unavailable")
      return false;
    Object.assign(record, { evidenceStatus: "waiting", evidenceWaiting: waiting });
    return true;
  }

  async claimEvidenceAnnouncement(alert: Key, atMs: number, over?: number): Promise<boolean> {
    const record = this.#records.get(keyOf(alert));
    if (!record || record.evidenceAnnouncedAt !== undefined) return false;
    if (record.evidenceAnnouncementClaimedAtMs !== over) return false;
    record.evidenceAnnouncementClaimedAtMs = atMs;
    return true;
  }

  async markEvidenceAnnouncedTo(alert: Key, recipients: readonly string[]): Promise<void> {
    const record = this.#records.get(keyOf(alert));
    if (!record) throw new Error(`no alert record ${alert.serialno}/${alert.ruleId}`);
    if (recipients.length > 0)
      record.evidenceAnnouncedTo = new Set([...(record.evidenceAnnouncedTo ?? []), ...recipients]);
  }

  async markEvidenceAnnounced(alert: Key, nowMs: number): Promise<void> {
    const record = this.#records.get(keyOf(alert));
    if (record) record.evidenceAnnouncedAt ??= iso(nowMs);
  }

  #fromPending(alert: AlertRecord, fields: Partial<AlertRecord>): boolean {
    return this.#from("pending", alert, fields);
  }

  #from(status: AlertRecord["status"], alert: AlertRecord, fields: Partial<AlertRecord>): boolean {
    const record = this.#records.get(keyOf(alert));
    if (record?.status !== status) return false;
    Object.assign(record, fields);
    return true;
  }
}

/** A copy of a stored record as the store's schema reads it: the claim is the store's own. */
function handedOut({ publishClaim: _claim, ...record }: Stored): AlertRecord {
  return structuredClone(record);
}

/** Chunks' publication items in memory, as PublicationStore keeps them: fenced by the writer's epoch. */
export class FakePublications implements Publications {
  readonly #items = new Map<string, StoredPublication>();

  async open(account: string, from: bigint, nowMs: number, epoch: number): Promise<Publication> {
    const item = this.#fenced(account, from, epoch, "publication-open");
    item.decidedAtMs ??= nowMs;
    return copy(item);
  }

  async claim(account: string, from: bigint, epoch: number): Promise<Publication> {
    const item = this.#fenced(account, from, epoch, "publication-claim");
    item.decidedAtMs ??= 0;
    return copy(item);
  }

  async get(account: string, from: bigint): Promise<Publication | undefined> {
    const item = this.#items.get(`${account}\u0000${from}`);
    return item && copy(item);
  }

  async addPublished(account: string, from: bigint, alertIds: readonly string[]): Promise<void> {
    const item = this.#item(account, from);
    for (const id of alertIds) item.published.add(id);
  }

  async addHandedOn(
    account: string,
    from: bigint,
    alertIds: readonly string[],
    epoch: number,
  ): Promise<void> {
    const item = this.#fenced(account, from, epoch, "hand-on-marks");
    for (const id of alertIds) item.handedOn.add(id);
  }

  #fenced(account: string, from: bigint, epoch: number, at: string) {
    const item = this.#item(account, from);
    if (item.fence !== undefined && item.fence > epoch) throw new FencedError(account, epoch, at);
    item.fence = epoch;
    return item;
  }

  #item(account: string, from: bigint): StoredPublication {
    const key = `${account}\u0000${from}`;
    const item = this.#items.get(key) ?? { published: new Set(), handedOn: new Set() };
    this.#items.set(key, item);
    return item;
  }
}

/** An item as the table holds it: written by `addPublished` alone, it has no decision time yet. */
type StoredPublication = Omit<Publication, "decidedAtMs"> & { decidedAtMs?: number; fence?: number };

function copy({ fence: _fence, decidedAtMs, ...sets }: StoredPublication): Publication {
  return structuredClone({ decidedAtMs: decidedAtMs ?? 0, ...sets });
}

export type PublishVerdict = "ok" | "transient" | "permanent";

/** The alerts topic in memory: keeps what it accepted; `verdict` decides each alert (default: accepted). */
export class FakeAlertPublisher implements AlertPublisher {
  readonly accepted: OutgoingAlert[] = [];
  verdict: (alert: OutgoingAlert) => PublishVerdict = () => "ok";

  /** The ids of the alerts accepted, in order: each must appear once. */
  acceptedIds(): string[] {
    return this.accepted.map((alert) => alert.alertId);
  }

  async publish(alerts: readonly OutgoingAlert[]): Promise<PublishOutcome[]> {
    return alerts.map((alert): PublishOutcome => {
      const verdict = this.verdict(alert);
      if (verdict !== "ok") {
        return { alertId: alert.alertId, ok: false, permanent: verdict === "permanent", reason: verdict };
      }
      this.accepted.push(structuredClone(alert));
      return { alertId: alert.alertId, ok: true, messageId: `message-${this.accepted.length}` };
    });
  }
}
