import { paginateQuery } from "@aws-sdk/lib-dynamodb";
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
