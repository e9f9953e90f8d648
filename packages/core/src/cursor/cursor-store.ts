import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionally, type TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";
import type { Cursors } from "./ports.js";

/**
 * Where each account's poller has read up to. The serial number is stored as a decimal string
 * (exact at any size) and only ever moves forward from the value the run read.
 */
export class CursorStore implements Cursors {
  constructor(private readonly table: TableRef) {}

  async read(account: string): Promise<bigint | undefined> {
    const { Item } = await this.table.documents.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: { pk: keys.account(account), sk: keys.cursor },
        ConsistentRead: true,
      }),
    );
    return typeof Item?.serialno === "string" ? BigInt(Item.serialno) : undefined;
  }

  /**
   * Moves the cursor from `from` (the value this run read; undefined for the first run) to `to`.
   * False when the stored value is no longer `from`: another run moved it, and this one must stop.
   */
  async advance(account: string, from: bigint | undefined, to: bigint, nowMs: number): Promise<boolean> {
    if (from !== undefined && to <= from) throw new RangeError("the cursor only moves forward");
    const item = {
      pk: keys.account(account),
      sk: keys.cursor,
      serialno: to.toString(),
      updatedAt: new Date(nowMs).toISOString(),
    };
    if (from === undefined) {
      return conditionally(() =>
        this.table.documents.send(
          new PutCommand({
            TableName: this.table.tableName,
            Item: item,
            ConditionExpression: "attribute_not_exists(pk)",
          }),
        ),
      );
    }
    return conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: "SET serialno = :to, updatedAt = :at",
          ConditionExpression: "serialno = :from",
          ExpressionAttributeValues: {
            ":to": item.serialno,
            ":from": from.toString(),
            ":at": item.updatedAt,
          },
        }),
      ),
    );
  }
}
