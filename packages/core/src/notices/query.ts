import { paginateQuery, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { TableRef } from "../store/dynamo.js";

/** Every item of a partition with a sort key in [from, to], in order, read strongly consistent. */
export async function itemsBetween(
  table: TableRef,
  pk: string,
  from: string,
  to: string,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const pages = paginateQuery(
    { client: table.documents },
    {
      TableName: table.tableName,
      KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
      ExpressionAttributeValues: { ":pk": pk, ":from": from, ":to": to },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) items.push(...(page.Items ?? []));
  return items;
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
