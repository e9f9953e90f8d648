import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { TableRef } from "../store/dynamo.js";

/**
 * The items of a partition with a sort key in [from, to], in order, read strongly consistent, a page
 * of at most `pageItems` at a time: the caller folds each page in before the next is read, so a day
 * of any number of alerts costs the memory of one page.
 */
export async function* pagesBetween(
  table: TableRef,
  pk: string,
  range: { from: string; to: string },
  pageItems: number,
): AsyncGenerator<Record<string, unknown>[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.documents.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
        ExpressionAttributeValues: { ":pk": pk, ":from": range.from, ":to": range.to },
        ConsistentRead: true,
        Limit: pageItems,
        ...(startKey && { ExclusiveStartKey: startKey }),
      }),
    );
    if (page.Items?.length) yield page.Items;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** The first sort key of a partition in [from, to], reading one item: how a caller skips from group to group of keys. */
export async function firstSortKeyBetween(
  table: TableRef,
  pk: string,
  range: { from: string; to: string },
): Promise<string | undefined> {
  const { Items = [] } = await table.documents.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
      ExpressionAttributeValues: { ":pk": pk, ":from": range.from, ":to": range.to },
      ProjectionExpression: "sk",
      ConsistentRead: true,
      Limit: 1,
    }),
  );
  const sk = Items[0]?.sk;
  return typeof sk === "string" ? sk : undefined;
}
