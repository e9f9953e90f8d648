import { setTimeout as sleep } from "node:timers/promises";
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  paginateQuery,
  QueryCommand,
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

/**
 * One page of a partition's items under `prefix`, in sort-key order: the first `limit` that `keep`
 * accepts after the sort key `prefix + after` (exclusive; any string, not only a key read before),
 * with `next`, the `after` of the page that follows, when more are left. Holds at most `limit` + 1
 * items: each Query asks for only as many as the page still lacks, and one more to tell whether
 * there is a next page.
 */
export async function pageWithPrefix(
  table: TableRef,
  pk: string,
  prefix: string,
  page: { limit: number; after?: string | undefined; keep?: (item: Record<string, unknown>) => boolean },
): Promise<{ items: Record<string, unknown>[]; next?: string }> {
  const kept: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined =
    page.after === undefined ? undefined : { pk, sk: `${prefix}${page.after}` };
  do {
    const answer = await table.documents.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": pk, ":prefix": prefix },
        ConsistentRead: true,
        Limit: page.limit + 1 - kept.length,
        ...(startKey && { ExclusiveStartKey: startKey }),
      }),
    );
    for (const item of answer.Items ?? []) if (page.keep?.(item) ?? true) kept.push(item);
    startKey = answer.LastEvaluatedKey;
  } while (startKey && kept.length <= page.limit);
  const items = kept.slice(0, page.limit);
  const last = items.at(-1);
  return kept.length > page.limit && last ? { items, next: String(last.sk).slice(prefix.length) } : { items };
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
