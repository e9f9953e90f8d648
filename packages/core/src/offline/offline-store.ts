import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import { conditionally, getItem, type TableRef } from "../store/dynamo.js";
import { keys, sortableSerial } from "../store/keys.js";
import type { OfflineCheck, OfflineCheckStatus, OfflineChecks } from "./ports.js";

export const OFFLINE_CHECK_STATUSES = [
  "pending",
  "confirmed",
  "cancelled",
] as const satisfies readonly OfflineCheckStatus[];

const offlineCheckItemSchema = z.object({
  serialno: z.string().transform((digits) => BigInt(digits)),
  status: z.enum(OFFLINE_CHECK_STATUSES),
  dueAtMs: z.number(),
});

/**
 * One pending Offline confirmation per device and rule. Statuses move only from `pending`, by
 * conditional writes, so a confirmation and a cancellation (an Online event) cannot both win, and a
 * duplicate delayed message finds nothing left to do.
 */
export class OfflineCheckStore implements OfflineChecks {
  constructor(private readonly table: TableRef) {}

  /**
   * Records a pending check for the Offline event `serialno`, unless a later event already decided
   * this device and rule (true if the check is pending for this event now, so its message is due).
   */
  schedule(...[account, deviceid, ruleId, serialno, dueAtMs]: Parameters<OfflineChecks["schedule"]>) {
    return conditionally(() =>
      this.table.documents.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: {
            pk: keys.account(account),
            sk: keys.offlineCheck(deviceid, ruleId),
            serialno: serialno.toString(),
            serialKey: sortableSerial(serialno),
            status: "pending",
            dueAtMs,
          },
          ConditionExpression:
            "attribute_not_exists(pk) OR serialKey < :serial OR (serialKey = :serial AND #status = :pending)",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":serial": sortableSerial(serialno), ":pending": "pending" },
        }),
      ),
    );
  }

  /** An Online event (serial `onlineSerialno`) cancels a pending check of an earlier Offline event. */
  cancelBefore(account: string, deviceid: string, ruleId: string, onlineSerialno: bigint): Promise<boolean> {
    return this.#endPending(account, deviceid, ruleId, {
      status: "cancelled",
      serialno: onlineSerialno,
      match: "before",
    });
  }

  async get(account: string, deviceid: string, ruleId: string): Promise<OfflineCheck | undefined> {
    const Item = await getItem(this.table, keys.account(account), keys.offlineCheck(deviceid, ruleId));
    return Item ? offlineCheckItemSchema.parse(Item) : undefined;
  }

  /** Ends the pending check of exactly this Offline event; false if it was no longer pending. */
  settle(
    account: string,
    deviceid: string,
    ruleId: string,
    serialno: bigint,
    status: "confirmed" | "cancelled",
  ): Promise<boolean> {
    return this.#endPending(account, deviceid, ruleId, { status, serialno, match: "exactly" });
  }

  /** Moves a pending check to `end.status` if its Offline event is `end.serialno` or, for "before", earlier. */
  #endPending(account: string, deviceid: string, ruleId: string, end: PendingEnd): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.account(account), sk: keys.offlineCheck(deviceid, ruleId) },
          UpdateExpression: "SET #status = :status",
          ConditionExpression: `#status = :pending AND serialKey ${end.match === "before" ? "<" : "="} :serial`,
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: {
            ":status": end.status,
            ":pending": "pending",
            ":serial": sortableSerial(end.serialno),
          },
        }),
      ),
    );
  }
}

interface PendingEnd {
  status: "confirmed" | "cancelled";
  serialno: bigint;
  match: "before" | "exactly";
}
