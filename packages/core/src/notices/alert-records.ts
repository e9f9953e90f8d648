import { setTimeout as sleep } from "node:timers/promises";
import { BatchGetCommand } from "@aws-sdk/lib-dynamodb";
import { type AlertRecord, alertItemSchema } from "../alerts/record.js";
import { chunked } from "../chunked.js";
import type { TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";

/** DynamoDB: keys per BatchGetItem. */
const BATCH_GET_MAX_KEYS = 100;
const MAX_ROUNDS = 8;

export interface AlertRef {
  account: string;
  serialno: string;
  ruleId: string;
}

/**
 * The alert records of `alerts`, by alert id, read strongly consistent in batches of 100; keys
 * DynamoDB leaves unprocessed (throttling) are asked for again with a growing pause.
 */
export async function readAlertRecords(
  table: TableRef,
  alerts: readonly AlertRef[],
): Promise<Map<string, AlertRecord>> {
  const records = new Map<string, AlertRecord>();
  const unique = new Map(
    alerts.map((alert) => {
      const key = { pk: keys.account(alert.account), sk: keys.alert(BigInt(alert.serialno), alert.ruleId) };
      return [`${key.pk}|${key.sk}`, key];
    }),
  );
  for (const batch of chunked([...unique.values()], BATCH_GET_MAX_KEYS)) {
    let waiting: Record<string, unknown>[] = batch;
    for (let round = 1; waiting.length > 0; round++) {
      if (round > MAX_ROUNDS) throw new Error(`${waiting.length} alert records stayed unprocessed`);
      const response = await table.documents.send(
        new BatchGetCommand({
          RequestItems: { [table.tableName]: { Keys: waiting, ConsistentRead: true } },
        }),
      );
      for (const item of response.Responses?.[table.tableName] ?? []) {
        const record = alertItemSchema.parse(item);
        records.set(record.alertId, record);
      }
      waiting = response.UnprocessedKeys?.[table.tableName]?.Keys ?? [];
      if (waiting.length > 0) await sleep(50 * 2 ** round);
    }
  }
  return records;
}
