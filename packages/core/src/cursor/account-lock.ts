import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionally, getItem, type TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";
import type { AccountLease, HeldLease, LeaseTake } from "./ports.js";

/**
 * How long a lease outlives the end of the invocation that took it: what a request sent just before
 * the end may take to land (a Publish, a write), and the clocks of two hosts may differ by. Lambda
 * ends an invocation at its time-out, so no poll can act once its lease has run out
 * (docs/design/exactly-once.md, "The lease and the fence").
 */
export const LEASE_MARGIN_MS = 15_000;

/**
 * One poller at a time per account: a lease in the table, taken with a conditional write for as long
 * as the taking invocation can run, and released at its end or handed over by name. A run that
 * crashed holding it delays the next by what was left of its invocation and the margin. Every take
 * gets a new epoch, greater than any before, which fences the writes of the poll that holds it
 * (fence.ts). The item also keeps when a run last caught up (`caughtUpAtMs`), set by the release
 * that ends such a run and read back by the next take, in the same writes: a run that fails (the
 * device cloud down) reports how long the account has been behind.
 */
export class AccountLock implements AccountLease {
  /** When each account last caught up, as this process last learned it. */
  readonly #caughtUpAtMs = new Map<string, number>();

  constructor(private readonly table: TableRef) {}

  async acquire(account: string, take: LeaseTake): Promise<HeldLease | undefined> {
    let taken: Record<string, unknown> | undefined;
    // Released, a lease keeps its item (for caughtUpAtMs) without an owner or an expiry.
    const free = "attribute_not_exists(expiresAtMs) OR expiresAtMs < :now";
    const acquired = await conditionally(async () => {
      const answer = await this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.account(account), sk: keys.lock },
          // The epoch starts at the clock's milliseconds and grows by one a take: polls take it far
          // less often than once a millisecond, so an item lost and made again starts above every
          // epoch the old one gave. Attributes of a chain's lease before tokens are dropped.
          UpdateExpression:
            "SET #owner = :token, expiresAtMs = :until, epoch = if_not_exists(epoch, :now) + :one REMOVE chain, plannedMs",
          ConditionExpression: take.handedOverBy === undefined ? free : `${free} OR #owner = :handedOverBy`,
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: {
            ":now": take.nowMs,
            ":token": take.token,
            ":until": take.untilMs,
            ":one": 1,
            ...(take.handedOverBy !== undefined && { ":handedOverBy": take.handedOverBy }),
          },
          ReturnValues: "ALL_NEW",
        }),
      );
      taken = answer.Attributes;
    });
    if (!acquired || typeof taken?.epoch !== "number") return undefined;
    if (typeof taken.caughtUpAtMs === "number") this.caughtUp(account, taken.caughtUpAtMs);
    return { account, token: take.token, epoch: taken.epoch, untilMs: take.untilMs };
  }

  async release(lease: HeldLease, caughtUpAtMs?: number): Promise<void> {
    if (caughtUpAtMs !== undefined) this.caughtUp(lease.account, caughtUpAtMs);
    await this.#giveUp(lease.account, lease.token, caughtUpAtMs);
  }

  handOver(lease: HeldLease, caughtUpAtMs?: number): void {
    if (caughtUpAtMs !== undefined) this.caughtUp(lease.account, caughtUpAtMs);
  }

  async releaseHandedOver(account: string, token: string, caughtUpAtMs: number): Promise<void> {
    this.caughtUp(account, caughtUpAtMs);
    const held = await getItem(this.table, keys.account(account), keys.lock);
    // Taken over since (a poll of the next chain) or released already: not this chain's to give up.
    if (held?.owner === token) await this.#giveUp(account, token, caughtUpAtMs);
  }

  /** Gives the lease up if `token` still holds it; the item stays (for `caughtUpAtMs` and the epoch). */
  async #giveUp(account: string, token: string, caughtUpAtMs: number | undefined): Promise<void> {
    await conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.account(account), sk: keys.lock },
          UpdateExpression:
            caughtUpAtMs === undefined
              ? "REMOVE #owner, expiresAtMs"
              : "REMOVE #owner, expiresAtMs SET caughtUpAtMs = :caughtUp",
          ConditionExpression: "#owner = :token",
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: {
            ":token": token,
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
