import { DeleteCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionally, type TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";
import type { AccountLease } from "./ports.js";

/**
 * One poller at a time per account: a lease in the table, taken with a conditional put, renewed as
 * the run goes and released at its end. A run that crashed holding it only delays the next run by
 * the lease. Two runs at once (a retry overlapping a scheduled run) would otherwise read the same
 * events and race to publish them.
 */
export class AccountLock implements AccountLease {
  constructor(
    private readonly table: TableRef,
    private readonly leaseMs: number,
  ) {}

  acquire(account: string, owner: string, nowMs: number): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: { pk: keys.account(account), sk: keys.lock, owner, expiresAtMs: nowMs + this.leaseMs },
          ConditionExpression: "attribute_not_exists(pk) OR expiresAtMs < :now OR #owner = :owner",
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: { ":now": nowMs, ":owner": owner },
        }),
      ),
    );
  }

  /** False when the lease was lost (it expired and another run took it): the run must stop. */
  renew(account: string, owner: string, nowMs: number): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.account(account), sk: keys.lock },
          UpdateExpression: "SET expiresAtMs = :until",
          ConditionExpression: "#owner = :owner",
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: { ":owner": owner, ":until": nowMs + this.leaseMs },
        }),
      ),
    );
  }

  async release(account: string, owner: string): Promise<void> {
    await conditionally(() =>
      this.table.documents.send(
        new DeleteCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.account(account), sk: keys.lock },
          ConditionExpression: "#owner = :owner",
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: { ":owner": owner },
        }),
      ),
    );
  }
}
