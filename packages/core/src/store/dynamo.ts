import { setTimeout as sleep } from "node:timers/promises";
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  paginateQuery,
} from "@aws-sdk/lib-dynamodb";
import { DYNAMODB_MAX_BATCH_WRITE_ITEMS } from "../aws-limits.js";
import { chunked } from "../chunked.js";

/** The table and the client every store shares. */
export interface TableRef {
  documents: DynamoDBDocumentClient;
  tableName: string;
}

/** Runs a conditional write; false when its condition did not hold (someone else got there first). */
export async function conditionally(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** One item by its keys, read strongly consistent: a store decides on what was last written. */
export async function getItem(
  table: TableRef,
  pk: string,
  sk: string,
): Promise<Record<string, unknown> | undefined> {
  const { Item } = await table.documents.send(
    new GetCommand({ TableName: table.tableName, Key: { pk, sk }, ConsistentRead: true }),
  );
  return Item;
}

/**
 * Every item of a partition whose sort key starts with `prefix`, in sort-key order, page by page,
 * read strongly consistent (as `getItem`).
 */
export async function* itemsWithPrefix(
  table: TableRef,
  pk: string,
  prefix: string,
): AsyncGenerator<Record<string, unknown>> {
  const pages = paginateQuery(
    { client: table.documents },
    {
      TableName: table.tableName,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": pk, ":prefix": prefix },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) yield* page.Items ?? [];
}

/** How often, and after what first delay (doubling), unprocessed batch items are sent again. */
export interface BatchRetry {
  attempts: number;
  delayMs: number;
}

/**
 * Puts whole items, 25 per BatchWriteItem and the batches concurrently, sending unprocessed items
 * again; throws if any is left unwritten, so that the caller's step is retried. Unconditional: for
 * items the writer alone owns, or that a rewrite leaves the same.
 */
export async function putAll(
  table: TableRef,
  items: readonly Record<string, unknown>[],
  retry: BatchRetry = { attempts: 5, delayMs: 50 },
): Promise<void> {
  await Promise.all(
    chunked(items, DYNAMODB_MAX_BATCH_WRITE_ITEMS).map(async (batch) => {
      let requests = batch.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 1; requests.length > 0; attempt++) {
        if (attempt > retry.attempts)
          throw new Error(
            `${requests.length} of ${batch.length} items left unwritten after ${retry.attempts} attempts`,
          );
        if (attempt > 1) await sleep(retry.delayMs * 2 ** (attempt - 2));
        const { UnprocessedItems } = await table.documents.send(
          new BatchWriteCommand({ RequestItems: { [table.tableName]: requests } }),
        );
        requests = (UnprocessedItems?.[table.tableName] ?? []) as typeof requests;
      }
    }),
  );
}

/**
 * An item's size as DynamoDB counts it (attribute names and values in UTF-8 bytes), rounded up:
 * every number as its largest (21 bytes), a map or list with its overhead. For refusing an item
 * over DynamoDB's limit before the write: one such item would fail its whole batch every time.
 */
export function itemBytes(item: Readonly<Record<string, unknown>>): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value),
    0,
  );
}

function valueBytes(value: unknown): number {
  if (typeof value === "string") return Buffer.byteLength(value);
  if (typeof value === "number" || typeof value === "bigint") return 21;
  if (value instanceof Set) return [...value].reduce((sum: number, member) => sum + valueBytes(member), 0);
  if (Array.isArray(value)) return value.reduce((sum: number, member) => sum + 1 + valueBytes(member), 3);
  if (typeof value === "object" && value !== null)
    return 3 + itemBytes(value as Record<string, unknown>) + Object.keys(value).length;
  return 1;
}
