import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionally, getItem, type TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";
import { FencedError, fenceExpression, fenceOf } from "./fence.js";
import type { Cursors } from "./ports.js";

export interface CursorItem {
  serialno: bigint;
  /** When it was last moved (ISO 8601); absent on items written before it was recorded. */
  updatedAt?: string;
}

/**
 * Where each account's poller has read up to. The serial number is stored as a decimal string
 * (exact at any size); the poller only moves it forward from the value its run read, an operator
 * in either direction from the value they saw.
 */
export class CursorStore implements Cursors {
  constructor(private readonly table: TableRef) {}

  async read(account: string): Promise<bigint | undefined> {
    return (await this.readItem(account))?.serialno;
  }

  /** The cursor with the time it was last moved, for an operator. */
  async readItem(account: string): Promise<CursorItem | undefined> {
    const Item = await getItem(this.table, keys.account(account), keys.cursor);
    if (typeof Item?.serialno !== "string") return undefined;
    return {
      serialno: BigInt(Item.serialno),
      ...(typeof Item.updatedAt === "string" && { updatedAt: Item.updatedAt }),
    };
  }

  /**
   * Moves the cursor from `from` (the value this run read; undefined for the first run) to `to`,
   * fenced by the poll's lease epoch. False when the stored value is no longer `from`: another run
   * moved it, and this one must stop. A FencedError when a later epoch moved it.
   */
  async advance(
    account: string,
    from: bigint | undefined,
    to: bigint,
    nowMs: number,
    epoch: number,
  ): Promise<boolean> {
    if (from !== undefined && to <= from) throw new RangeError("the cursor only moves forward");
    if (await this.#set(account, from, to, nowMs, epoch)) return true;
    // Refused: by a later epoch's move, or by another value (an operator's, or an older poll's).
    const fence = fenceOf(await getItem(this.table, keys.account(account), keys.cursor));
    if (fence !== undefined && fence > epoch) throw new FencedError(account, epoch, "cursor");
    return false;
  }

  /**
   * Sets the cursor to `to` in either direction (an operator may move it back to read events
   * again), provided it still holds `expected`, the value the operator saw: a poller moving it
   * meanwhile is never silently overwritten. False when it no longer holds `expected`. The fence
   * stays as the pollers left it.
   */
  replace(account: string, expected: bigint | undefined, to: bigint, nowMs: number): Promise<boolean> {
    return this.#set(account, expected, to, nowMs);
  }

  #set(account: string, expected: bigint | undefined, to: bigint, nowMs: number, epoch?: number) {
    const fence = epoch === undefined ? undefined : fenceExpression(epoch);
    const holds = expected === undefined ? "attribute_not_exists(pk)" : "serialno = :expected";
    return conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.account(account), sk: keys.cursor },
          UpdateExpression: `SET serialno = :to, updatedAt = :at${fence ? `, ${fence.assignment}` : ""}`,
          ConditionExpression: fence ? `${holds} AND ${fence.condition}` : holds,
          ...(fence && { ExpressionAttributeNames: fence.names }),
          ExpressionAttributeValues: {
            ":to": to.toString(),
            ":at": new Date(nowMs).toISOString(),
            ...(expected !== undefined && { ":expected": expected.toString() }),
            ...fence?.values,
          },
        }),
      ),
    );
  }
}
