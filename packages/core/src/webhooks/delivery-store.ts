import { DeleteCommand, PutCommand, UpdateCommand, type UpdateCommandInput } from "@aws-sdk/lib-dynamodb";
import { conditionally, getItem, type TableRef } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";

/** A target's state: only a disabled target has one worth reading. */
export interface TargetState {
  disabledAtMs: number;
  reason: string;
  /** When ops' notice of it was claimed (wall clock), and when it was told. */
  noticeClaimedAtMs?: number;
  noticeToldAtMs?: number;
}

/** The outcome of a claim: ours to send, sent already, or being sent by another receive now. */
export type ClaimOutcome = "claimed" | "delivered" | "in-flight";

/** The webhook function's items: each target's state and its deliveries (port for the tests' fakes too). */
export interface WebhookDeliveries {
  targetState(targetId: string): Promise<TargetState | undefined>;
  /** At `atMs` on the wall clock; a claim older than `leaseMs` is taken over (its holder died). */
  claim(delivery: DeliveryKey, claimId: string, atMs: number, leaseMs: number): Promise<ClaimOutcome>;
  /** Gives the claim up (the POST failed), so that the retry claims it at once. */
  release(delivery: DeliveryKey, claimId: string): Promise<void>;
  markDelivered(delivery: DeliveryKey, claimId: string, nowMs: number, httpStatus: number): Promise<void>;
  /** Disables the target; true only for the call that disabled it. */
  disableTarget(targetId: string, reason: string, nowMs: number): Promise<boolean>;
  /**
   * Claims telling ops that the target is disabled, at `atMs` on the wall clock: the first claim,
   * or with `over` a take-over of the claim made then. True for one caller, never once told.
   */
  claimDisabledNotice(targetId: string, atMs: number, over?: number): Promise<boolean>;
  markDisabledNoticeTold(targetId: string, nowMs: number): Promise<void>;
  /** Enables it again (`fleet-alerts target enable`); false if it was not disabled. */
  enableTarget(targetId: string): Promise<boolean>;
}

export interface DeliveryKey {
  targetId: string;
  alertId: string;
}

// Long enough for a receiver to turn to it again after a replay or redrive (SQS keeps a job 4 days;
// a DLQ redrive may come later), short enough not to keep a target's partition growing.
const DELIVERY_RETENTION_DAYS = 30;

/** The items in the single table: `TARGET#<id>` / `TARGET` and `TARGET#<id>` / `DELIVERY#<alertId>`. */
export class WebhookDeliveryStore implements WebhookDeliveries {
  constructor(private readonly table: TableRef) {}

  async targetState(targetId: string): Promise<TargetState | undefined> {
    const item = await getItem(this.table, keys.target(targetId), keys.targetState);
    if (typeof item?.disabledAtMs !== "number") return undefined;
    return {
      disabledAtMs: item.disabledAtMs,
      reason: String(item.reason ?? ""),
      ...(typeof item.noticeClaimedAtMs === "number" && { noticeClaimedAtMs: item.noticeClaimedAtMs }),
      ...(typeof item.noticeToldAtMs === "number" && { noticeToldAtMs: item.noticeToldAtMs }),
    };
  }

  async claim(delivery: DeliveryKey, claimId: string, atMs: number, leaseMs: number): Promise<ClaimOutcome> {
    const claimed = await conditionally(() =>
      this.table.documents.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: {
            ...this.#key(delivery),
            status: "claimed",
            claimId,
            claimedAtMs: atMs,
            expiresAt: expiresAfterDays(atMs, DELIVERY_RETENTION_DAYS),
          },
          // New, or a claim whose holder has not finished within its lease (it crashed): taken over.
          ConditionExpression: "attribute_not_exists(pk) OR (#status = :claimed AND claimedAtMs < :expired)",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":claimed": "claimed", ":expired": atMs - leaseMs },
        }),
      ),
    );
    if (claimed) return "claimed";
    const item = await getItem(
      this.table,
      keys.target(delivery.targetId),
      keys.webhookDelivery(delivery.alertId),
    );
    // Gone between the two calls: released by a failed attempt; the retry will claim it.
    return item?.status === "delivered" ? "delivered" : "in-flight";
  }

  async release(delivery: DeliveryKey, claimId: string): Promise<void> {
    await conditionally(() =>
      this.table.documents.send(
        new DeleteCommand({
          TableName: this.table.tableName,
          Key: this.#key(delivery),
          ConditionExpression: "#status = :claimed AND claimId = :claimId",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":claimed": "claimed", ":claimId": claimId },
        }),
      ),
    );
  }

  async markDelivered(
    delivery: DeliveryKey,
    claimId: string,
    nowMs: number,
    httpStatus: number,
  ): Promise<void> {
    // Unconditional on the claim: the receiver took it, whoever holds the claim now.
    await this.table.documents.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: this.#key(delivery),
        UpdateExpression:
          "SET #status = :delivered, deliveredAtMs = :now, httpStatus = :http, claimId = :claimId",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":delivered": "delivered",
          ":now": nowMs,
          ":http": httpStatus,
          ":claimId": claimId,
        },
      }),
    );
  }

  disableTarget(targetId: string, reason: string, nowMs: number): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.target(targetId), sk: keys.targetState },
          UpdateExpression: "SET disabledAtMs = :now, reason = :reason",
          ConditionExpression: "attribute_not_exists(disabledAtMs)",
          ExpressionAttributeValues: { ":now": nowMs, ":reason": reason },
        }),
      ),
    );
  }

  claimDisabledNotice(targetId: string, atMs: number, over?: number): Promise<boolean> {
    const claimed =
      over === undefined ? "attribute_not_exists(noticeClaimedAtMs)" : "noticeClaimedAtMs = :over";
    return this.#updateState(targetId, {
      UpdateExpression: "SET noticeClaimedAtMs = :at",
      ConditionExpression: `attribute_exists(disabledAtMs) AND attribute_not_exists(noticeToldAtMs) AND ${claimed}`,
      ExpressionAttributeValues: { ":at": atMs, ...(over !== undefined && { ":over": over }) },
    });
  }

  async markDisabledNoticeTold(targetId: string, nowMs: number): Promise<void> {
    // False when enabled meanwhile (the item is gone) or marked by another receive: nothing to do.
    await this.#updateState(targetId, {
      UpdateExpression: "SET noticeToldAtMs = :now",
      ConditionExpression: "attribute_exists(disabledAtMs) AND attribute_not_exists(noticeToldAtMs)",
      ExpressionAttributeValues: { ":now": nowMs },
    });
  }

  enableTarget(targetId: string): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new DeleteCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.target(targetId), sk: keys.targetState },
          ConditionExpression: "attribute_exists(disabledAtMs)",
        }),
      ),
    );
  }

  #updateState(
    targetId: string,
    update: Pick<
      UpdateCommandInput,
      "UpdateExpression" | "ConditionExpression" | "ExpressionAttributeValues"
    >,
  ): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.target(targetId), sk: keys.targetState },
          ...update,
        }),
      ),
    );
  }

  #key({ targetId, alertId }: DeliveryKey) {
    return { pk: keys.target(targetId), sk: keys.webhookDelivery(alertId) };
  }
}
