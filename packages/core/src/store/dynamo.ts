import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, paginateQuery } from "@aws-sdk/lib-dynamodb";

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
