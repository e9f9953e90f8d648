import { QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { TableRef } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import { type SetAsideEntry, type StoredSetAside, storedSetAsideSchema } from "./entry.js";
import type { SetAsideRecords } from "./ports.js";

// As long as the alert records whose trail they are part of.
const RETENTION_DAYS = 366;

/**
 * `ACCOUNT#<account>` / `SETASIDE#<serial>#<rule>#<step>[#<target>]`. Written field by field with
 * `if_not_exists`, so the first setting aside keeps its time and reason, and a replay (which meets
 * the same refusal) adds nothing; `toldAtMs` says ops heard of it.
 */
export class SetAsideStore implements SetAsideRecords {
  constructor(private readonly table: TableRef) {}

  async add(entries: readonly SetAsideEntry[], nowMs: number): Promise<StoredSetAside[]> {
    const stored = await Promise.all(
      entries.map(async (entry) => {
        const fields = Object.entries(fieldsOf(entry, nowMs));
        const { Attributes } = await this.table.documents.send(
          new UpdateCommand({
            TableName: this.table.tableName,
            Key: this.#key(entry),
            UpdateExpression: `SET ${fields.map(([name]) => `#${name} = if_not_exists(#${name}, :${name})`).join(", ")}`,
            ExpressionAttributeNames: Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
            ExpressionAttributeValues: Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])),
            ReturnValues: "ALL_NEW",
          }),
        );
        return storedSetAsideSchema.parse(Attributes);
      }),
    );
    return stored.filter((entry) => entry.toldAtMs === undefined);
  }

  async markTold(entries: readonly SetAsideEntry[], nowMs: number): Promise<void> {
    await Promise.all(
      entries.map((entry) =>
        this.table.documents.send(
          new UpdateCommand({
            TableName: this.table.tableName,
            Key: this.#key(entry),
            UpdateExpression: "SET toldAtMs = if_not_exists(toldAtMs, :now)",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":now": nowMs },
          }),
        ),
      ),
    );
  }

  async list(account: string, limit: number): Promise<StoredSetAside[]> {
    const { Items = [] } = await this.table.documents.send(
      new QueryCommand({
        TableName: this.table.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": keys.account(account), ":prefix": keys.setAsidePrefix },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map((item) => storedSetAsideSchema.parse(item));
  }

  #key(entry: SetAsideEntry) {
    return {
      pk: keys.account(entry.account),
      sk: keys.setAside(BigInt(entry.serialno), entry.ruleId, entry.step, entry.targetId),
    };
  }
}

/** Every field of the item but its keys, as first written. */
function fieldsOf(entry: SetAsideEntry, nowMs: number): Record<string, unknown> {
  return {
    ...entry,
    setAsideAtMs: nowMs,
    expiresAt: expiresAfterDays(nowMs, RETENTION_DAYS),
  };
}
