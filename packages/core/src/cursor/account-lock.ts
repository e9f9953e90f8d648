import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionally, getItem, type TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";
import type { AccountLease, ChainLink } from "./ports.js";

/**
 * One poller at a time per account: a lease in the table, taken with a conditional put, renewed as
 * the run goes and released at its end. A run that crashed holding it only delays the next run by
 * the lease. Two runs at once (a retry overlapping a scheduled run) would otherwise read the same
 * events and race to publish them. The item also keeps when a run last caught up (`caughtUpAtMs`),
 * set by the release that ends such a run and read back by the next take, in the same writes: a
 * run that fails (the device cloud down) reports how long the account has been behind.
 */
export class AccountLock implements AccountLease {
  /** When each run's lease (by account and owner) was last taken or extended, by this process. */
  readonly #extendedAtMs = new Map<string, number>();
  /** When each account last caught up, as this process last learned it. */
  readonly #caughtUpAtMs = new Map<string, number>();

  constructor(
    private readonly table: TableRef,
    private readonly leaseMs: number,
  ) {}

  async acquire(account: string, owner: string, nowMs: number, link?: ChainLink): Promise<boolean> {
    let previous: Record<string, unknown> | undefined;
    // Released, a lease keeps its item (for caughtUpAtMs) without an owner or an expiry.
    const free = "attribute_not_exists(expiresAtMs) OR expiresAtMs < :now OR #owner = :owner";
    const acquired = await conditionally(async () => {
      const taken = await this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.account(account), sk: keys.lock },
          ...(link
            ? {
                UpdateExpression:
                  "SET #owner = :owner, expiresAtMs = :until, chain = :chain, plannedMs = :planned",
                // Or left held by an earlier poll of this chain: one planned at the same time (a
                // timer SQS delivered twice) or later is refused like any other.
                ConditionExpression: `${free} OR (chain = :chain AND plannedMs < :planned)`,
                ExpressionAttributeValues: {
                  ":now": nowMs,
                  ":owner": owner,
                  ":until": nowMs + this.leaseMs,
                  ":chain": link.chain,
                  ":planned": link.plannedMs,
                },
              }
            : {
                UpdateExpression: "SET #owner = :owner, expiresAtMs = :until REMOVE chain, plannedMs",
                ConditionExpression: free,
                ExpressionAttributeValues: { ":now": nowMs, ":owner": owner, ":until": nowMs + this.leaseMs },
              }),
          ExpressionAttributeNames: { "#owner": "owner" },
          ReturnValues: "ALL_OLD",
        }),
      );
      previous = taken.Attributes;
    });
    if (!acquired) return false;
    this.#extendedAtMs.set(leaseKey(account, owner), nowMs);
    if (typeof previous?.caughtUpAtMs === "number") this.caughtUp(account, previous.caughtUpAtMs);
    return true;
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

  async release(account: string, owner: string, caughtUpAtMs?: number): Promise<void> {
    this.#extendedAtMs.delete(leaseKey(account, owner));
    if (caughtUpAtMs !== undefined) this.caughtUp(account, caughtUpAtMs);
    await this.#giveUp(account, owner, caughtUpAtMs);
  }

  handOver(account: string, owner: string, caughtUpAtMs?: number): void {
    this.#extendedAtMs.delete(leaseKey(account, owner));
    if (caughtUpAtMs !== undefined) this.caughtUp(account, caughtUpAtMs);
  }

  async releaseChain(account: string, chain: string, caughtUpAtMs: number): Promise<void> {
    this.caughtUp(account, caughtUpAtMs);
    const held = await getItem(this.table, keys.account(account), keys.lock);
    // Given up by the poll that left it: a poll of the next chain may have taken it since.
    if (held?.chain === chain && typeof held.owner === "string")
      await this.#giveUp(account, held.owner, caughtUpAtMs);
  }

  /** Gives the lease up if `owner` still holds it; the item stays (for `caughtUpAtMs`). */
  async #giveUp(account: string, owner: string, caughtUpAtMs: number | undefined): Promise<void> {
    await conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.account(account), sk: keys.lock },
          UpdateExpression:
            caughtUpAtMs === undefined
              ? "REMOVE #owner, expiresAtMs, chain, plannedMs"
              : "REMOVE #owner, expiresAtMs, chain, plannedMs SET caughtUpAtMs = :caughtUp",
          ConditionExpression: "#owner = :owner",
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: {
            ":owner": owner,
            ...(caughtUpAtMs !== undefined && { ":caughtUp": caughtUpAtMs }),
          },
        }),
      ),
    );
  }

  caughtUp(account: string, atMs: number): void {
    this.#caughtUpAtMs.set(account, Math.max(atMs, this.#caughtUpAtMs.get(account) ?? atMs));
  }

  lastCaughtUpMs(account: string): number | undefined {
    return this.#caughtUpAtMs.get(account);
  }
}

function leaseKey(account: string, owner: string): string {
  return `${account}\u0000${owner}`;
}
