import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionally, type TableRef } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import {
  type SetAsideEntry,
  type StoredSetAside,
  setAsideEntrySchema,
  storedSetAsideSchema,
} from "./entry.js";
import type { SetAsideRecords } from "./ports.js";

// As long as the alert records whose trail they are part of.
const RETENTION_DAYS = 366;

/**
 * `ACCOUNT#<account>` / `SETASIDE#<serial>#<rule>#<step>[#<target>]`. Written field by field with
 * `if_not_exists`, so the first setting aside keeps its time and reason, and a replay (which meets
 * the same refusal) adds nothing; `tellClaimedAtMs` says who tells ops (a conditional update),
 * `toldAtMs` that ops heard of it. While ops are owed a notice, a copy of the entry waits in
 * `SETASIDEOWED#<account>` under the same sort key: the sweep's bounded read.
 */
export class SetAsideStore implements SetAsideRecords {
  constructor(private readonly table: TableRef) {}

  async owe(entries: readonly SetAsideEntry[]): Promise<void> {
    await Promise.all(
      entries.map((entry) =>
        this.table.documents.send(
          new PutCommand({ TableName: this.table.tableName, Item: { ...this.#owedKey(entry), ...entry } }),
        ),
      ),
    );
  }

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

  async claimTelling(
    entries: readonly SetAsideEntry[],
    atMs: number,
    leaseMs: number,
  ): Promise<StoredSetAside[]> {
    const claimed = await Promise.all(
      entries.map(async (entry) => {
        let stored: StoredSetAside | undefined;
        await conditionally(async () => {
          const { Attributes } = await this.table.documents.send(
            new UpdateCommand({
              TableName: this.table.tableName,
              Key: this.#key(entry),
              UpdateExpression: "SET tellClaimedAtMs = :at",
              // One condition, so of two callers one claims: a live claim is never taken over.
              ConditionExpression:
                "attribute_exists(pk) AND attribute_not_exists(toldAtMs) AND (attribute_not_exists(tellClaimedAtMs) OR tellClaimedAtMs <= :lapsed)",
              ExpressionAttributeValues: { ":at": atMs, ":lapsed": atMs - leaseMs },
              ReturnValues: "ALL_NEW",
            }),
          );
          stored = storedSetAsideSchema.parse(Attributes);
        });
        return stored;
      }),
    );
    return claimed.filter((entry) => entry !== undefined);
  }

  async markTold(entries: readonly SetAsideEntry[], nowMs: number): Promise<void> {
    await Promise.all(
      entries.map(async (entry) => {
        await this.table.documents.send(
          new UpdateCommand({
            TableName: this.table.tableName,
            Key: this.#key(entry),
            UpdateExpression: "SET toldAtMs = if_not_exists(toldAtMs, :now)",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":now": nowMs },
          }),
        );
        // Only once it is marked: an entry is owed until then.
        await this.table.documents.send(
          new DeleteCommand({ TableName: this.table.tableName, Key: this.#owedKey(entry) }),
        );
      }),
    );
  }

  async owed(account: string, limit: number): Promise<SetAsideEntry[]> {
    const { Items = [] } = await this.table.documents.send(
      new QueryCommand({
        TableName: this.table.tableName,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": keys.setAsideOwed(account) },
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return Items.map((item) => setAsideEntrySchema.parse(item));
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
    return { pk: keys.account(entry.account), sk: sortKeyOf(entry) };
  }

  #owedKey(entry: SetAsideEntry) {
    return { pk: keys.setAsideOwed(entry.account), sk: sortKeyOf(entry) };
  }
}

function sortKeyOf(entry: SetAsideEntry): string {
  return keys.setAside(BigInt(entry.serialno), entry.ruleId, entry.step, entry.targetId);
}

/** Every field of the item but its keys, as first written. */
function fieldsOf(entry: SetAsideEntry, nowMs: number): Record<string, unknown> {
  return {
    ...entry,
    setAsideAtMs: nowMs,
    expiresAt: expiresAfterDays(nowMs, RETENTION_DAYS),
  };
}
