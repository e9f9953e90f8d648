import { PutCommand, paginateQuery } from "@aws-sdk/lib-dynamodb";
import type { Route } from "../routing/route.js";
import { conditionally, putAll, type TableRef } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import { type AlertKey, readAlertItem, updateAlertItem } from "./alert-item.js";
import type { AlertRecords, ChunkAlertRecord, ClaimOutcome, PublicationClaim } from "./ports.js";
import {
  type AlertRecord,
  type AlertStatus,
  alertIdOf,
  alertItemSchema,
  type EvidenceWaiting,
  type NewAlertRecord,
} from "./record.js";

// Alert records are history, not state: they expire after a year (the table's TTL attribute).
const RETENTION_DAYS = 366;

/** Alert records in DynamoDB: written once, then moved forward through their states. */
export class AlertStore implements AlertRecords {
  constructor(private readonly table: TableRef) {}

  /** Writes the record unless one exists for the same account, serialno and rule; true if written. */
  record(alert: NewAlertRecord, nowMs: number): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: alertItem(alert, nowMs),
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
    );
  }

  /**
   * Writes a chunk's new records whole, 25 to a request and unconditionally: the poller writes only
   * records its window lacks, under the account's lease, and a rewrite by a replay is the same
   * record (made as of the chunk's decision time, publication-store.ts).
   */
  async recordChunk(alerts: readonly ChunkAlertRecord[]): Promise<AlertRecord[]> {
    const items = alerts.map(({ chunkFrom, route, decidedAtMs, ...alert }) => ({
      ...alertItem(alert, decidedAtMs),
      chunkFrom: chunkFrom.toString(),
      ...(route && { route, publishedAt: new Date(decidedAtMs).toISOString() }),
      // A stale alert's footage is collected all the same (its evidence job goes with the chunk's).
      ...(alert.evidence && { evidenceStatus: "pending" }),
    }));
    await putAll(this.table, items);
    return items.map((item) => alertItemSchema.parse(item));
  }

  get(account: string, serialno: bigint, ruleId: string): Promise<AlertRecord | undefined> {
    return readAlertItem(this.table, { account, serialno, ruleId });
  }

  /** Every alert record of serial numbers in (after, through], in ascending serialno. */
  async inWindow(account: string, after: bigint, through: bigint): Promise<AlertRecord[]> {
    const { from, to } = keys.alertRange(after, through);
    const records: AlertRecord[] = [];
    const pages = paginateQuery(
      { client: this.table.documents },
      {
        TableName: this.table.tableName,
        KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
        ExpressionAttributeValues: { ":pk": keys.account(account), ":from": from, ":to": to },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) records.push(alertItemSchema.parse(item));
    }
    return records;
  }

  async claimPublication(alert: AlertRecord, claim: PublicationClaim): Promise<ClaimOutcome> {
    const claimed = await conditionally(() =>
      updateAlertItem(this.table, alert, {
        UpdateExpression: "SET publishClaim = :token, publishClaimedUntilMs = :until",
        ConditionExpression:
          "#status = :pending AND (attribute_not_exists(publishClaimedUntilMs) OR publishClaimedUntilMs < :now OR publishClaim = :token)",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":token": claim.token,
          ":until": claim.untilMs,
          ":now": claim.nowMs,
          ":pending": "pending",
        },
      }),
    );
    if (claimed) return "claimed";
    // Refused: published (or failed) by another delivery, or held by its live claim.
    return (await this.get(alert.account, alert.serialno, alert.ruleId))?.status === "pending"
      ? "busy"
      : "settled";
  }

  markPublished(
    alert: AlertRecord,
    snsMessageId: string | undefined,
    nowMs: number,
    route: Route,
  ): Promise<boolean> {
    return this.#transition(alert, "published", {
      ...(snsMessageId !== undefined && { snsMessageId }),
      publishedAt: new Date(nowMs).toISOString(),
      route,
    });
  }

  async markPartlySent(alert: AlertRecord, route: Route, sentTo: readonly string[]): Promise<void> {
    if (sentTo.length === 0) return;
    // The route is written only if none is kept yet: the first attempt's decided it. Neither
    // pending nor published (a poller's record is written published before it goes out): it
    // failed for good, and there is nothing left to remember.
    await conditionally(() =>
      updateAlertItem(this.table, alert, {
        UpdateExpression: "SET #route = if_not_exists(#route, :route) ADD sentTo :sent",
        ConditionExpression: "#status IN (:pending, :published)",
        ExpressionAttributeNames: { "#route": "route", "#status": "status" },
        ExpressionAttributeValues: {
          ":route": route,
          ":sent": new Set(sentTo),
          ":pending": "pending",
          ":published": "published",
        },
      }),
    );
  }

  /**
   * A publish the service refused for good (a sender fault): recorded, so it neither blocks nor
   * repeats. From pending, or from published on a poller's record that had not gone out.
   */
  markFailed(alert: AlertRecord, failure: string): Promise<boolean> {
    return this.#transition(
      alert,
      "failed",
      { failure },
      alert.chunkFrom === undefined ? "pending" : "published",
    );
  }

  async markHandedOn(alert: AlertRecord, nowMs: number): Promise<void> {
    await updateAlertItem(this.table, alert, {
      UpdateExpression: alert.evidence
        ? "SET handedOnAt = :at, evidenceStatus = if_not_exists(evidenceStatus, :pending)"
        : "SET handedOnAt = :at",
      ExpressionAttributeValues: {
        ":at": new Date(nowMs).toISOString(),
        ...(alert.evidence && { ":pending": "pending" }),
      },
    });
  }

  /**
   * Records how the evidence ended. `stored` and `unavailable` are final; `failed` (the job went to
   * the DLQ) may still become `stored` if the job is redriven.
   */
  async setEvidence(
    alert: AlertKey,
    outcome: { status: "stored" | "unavailable" | "failed"; keys?: string[]; error?: string },
  ): Promise<void> {
    await updateAlertItem(this.table, alert, {
      UpdateExpression: "SET evidenceStatus = :status, evidenceKeys = :keys, evidenceError = :error",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeValues: {
        ":status": outcome.status,
        ":keys": outcome.keys ?? [],
        ":error": outcome.error ?? "",
      },
    });
  }

  setEvidenceWaiting(alert: AlertKey, waiting: EvidenceWaiting): Promise<boolean> {
    return conditionally(() =>
      updateAlertItem(this.table, alert, {
        UpdateExpression: "SET evidenceStatus = :waiting, evidenceWaiting = :wait",
        // A missing status is in no list: NOT ... IN holds for it.
        ConditionExpression: "attribute_exists(pk) AND NOT evidenceStatus IN (:stored, :unavailable)",
        ExpressionAttributeValues: {
          ":waiting": "waiting",
          ":wait": waiting,
          ":stored": "stored",
          ":unavailable": "unavailable",
        },
      }),
    );
  }

  /**
   * One conditional update: the first claim, or a take-over of the claim made at `over`. An
   * `evidenceAnnouncedAt` (also what a one-shot claim of before left) means announced: never again.
   */
  claimEvidenceAnnouncement(alert: AlertKey, atMs: number, over?: number): Promise<boolean> {
    const claimed =
      over === undefined
        ? "attribute_not_exists(evidenceAnnouncementClaimedAtMs)"
        : "evidenceAnnouncementClaimedAtMs = :over";
    return conditionally(() =>
      updateAlertItem(this.table, alert, {
        UpdateExpression: "SET evidenceAnnouncementClaimedAtMs = :at",
        ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(evidenceAnnouncedAt) AND ${claimed}`,
        ExpressionAttributeValues: { ":at": atMs, ...(over !== undefined && { ":over": over }) },
      }),
    );
  }

  async markEvidenceAnnouncedTo(alert: AlertKey, recipients: readonly string[]): Promise<void> {
    if (recipients.length === 0) return;
    await updateAlertItem(this.table, alert, {
      UpdateExpression: "ADD evidenceAnnouncedTo :recipients",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeValues: { ":recipients": new Set(recipients) },
    });
  }

  async markEvidenceAnnounced(alert: AlertKey, nowMs: number): Promise<void> {
    // False only if another delivery marked it first: announced either way.
    await conditionally(() =>
      updateAlertItem(this.table, alert, {
        UpdateExpression: "SET evidenceAnnouncedAt = :at",
        ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(evidenceAnnouncedAt)",
        ExpressionAttributeValues: { ":at": new Date(nowMs).toISOString() },
      }),
    );
  }

  #transition(
    alert: AlertRecord,
    status: AlertStatus,
    fields: Record<string, unknown>,
    from: AlertStatus = "pending",
  ): Promise<boolean> {
    const names = Object.keys(fields);
    return conditionally(() =>
      updateAlertItem(this.table, alert, {
        UpdateExpression: `SET #status = :status, ${names.map((name) => `#${name} = :${name}`).join(", ")}`,
        ConditionExpression: "#status = :from",
        // Every name as a placeholder: DynamoDB reserves many plain words.
        ExpressionAttributeNames: {
          "#status": "status",
          ...Object.fromEntries(names.map((name) => [`#${name}`, name])),
        },
        ExpressionAttributeValues: {
          ":status": status,
          ":from": from,
          ...Object.fromEntries(names.map((name) => [`:${name}`, fields[name]])),
        },
      }),
    );
  }
}

/** A new record as an item: its keys, its id, its message as JSON, its times. */
function alertItem(
  alert: Omit<NewAlertRecord, "status"> & { status: AlertStatus },
  nowMs: number,
): Record<string, unknown> {
  const { serialno, message, ...rest } = alert;
  return {
    pk: keys.account(alert.account),
    sk: keys.alert(serialno, alert.ruleId),
    ...rest,
    serialno: serialno.toString(),
    alertId: alertIdOf(alert.account, serialno, alert.ruleId),
    ...(message && { message: JSON.stringify(message) }),
    createdAt: new Date(nowMs).toISOString(),
    expiresAt: expiresAfterDays(nowMs, RETENTION_DAYS),
  };
}
