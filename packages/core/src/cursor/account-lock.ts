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
  /** When each run's lease (by account and owner) was last taken or extended, by this process. */
  readonly #extendedAtMs = new Map<string, number>();

  constructor(
    private readonly table: TableRef,
    private readonly leaseMs: number,
  ) {}

  async acquire(account: string, owner: string, nowMs: number): Promise<boolean> {
    const acquired = await conditionally(() =>
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
    if (acquired) this.#extendedAtMs.set(leaseKey(account, owner), nowMs);
    return acquired;
  }

  /**
   * False when the lease was lost (it expired and another run took it): the run must stop. A lease
   * taken or extended less than half its length ago is left as it is, without a request: no other
   * run can take it before it expires, and a run renews after every chunk (a second or so apart),
   * which would otherwise cost a write each.
   */
  async renew(account: string, owner: string, nowMs: number): Promise<boolean> {
    const key = leaseKey(account, owner);
    const extendedAtMs = this.#extendedAtMs.get(key);
    if (extendedAtMs !== undefined && nowMs - extendedAtMs < this.leaseMs / 2) return true;
    const renewed = await conditionally(() =>
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
    if (renewed) this.#extendedAtMs.set(key, nowMs);
    else this.#extendedAtMs.delete(key);
    return renewed;
  }

  async release(account: string, owner: string): Promise<void> {
    this.#extendedAtMs.delete(leaseKey(account, owner));
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

function leaseKey(account: string, owner: string): string {
  return `${account}\u0000${owner}`;
}
