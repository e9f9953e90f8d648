import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { conditionally, getItem, type TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";
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
   * Moves the cursor from `from` (the value this run read; undefined for the first run) to `to`.
   * False when the stored value is no longer `from`: another run moved it, and this one must stop.
   */
  advance(account: string, from: bigint | undefined, to: bigint, nowMs: number): Promise<boolean> {
    if (from !== undefined && to <= from) throw new RangeError("the cursor only moves forward");
    return this.replace(account, from, to, nowMs);
  }

  /**
   * Sets the cursor to `to` in either direction (an operator may move it back to read events
   * again), provided it still holds `expected`, the value the operator saw: a poller moving it
   * meanwhile is never silently overwritten. False when it no longer holds `expected`.
   */
  replace(account: string, expected: bigint | undefined, to: bigint, nowMs: number): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: {
            pk: keys.account(account),
            sk: keys.cursor,
            serialno: to.toString(),
            updatedAt: new Date(nowMs).toISOString(),
          },
          ...(expected === undefined
            ? { ConditionExpression: "attribute_not_exists(pk)" }
            : {
                ConditionExpression: "serialno = :expected",
                ExpressionAttributeValues: { ":expected": expected.toString() },
              }),
        }),
      ),
    );
  }
}
