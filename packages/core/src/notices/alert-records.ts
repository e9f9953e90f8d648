import { setTimeout as sleep } from "node:timers/promises";
import { BatchGetCommand } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import { alertItemSchema } from "../alerts/record.js";
import { DYNAMODB_MAX_BATCH_GET_KEYS } from "../aws-limits.js";
import { chunked } from "../chunked.js";
import type { TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";
import type { DigestRecordFacts } from "./digest-model.js";

const MAX_ROUNDS = 8;

/**
 * The few attributes of an alert record a digest counts. Only these are read: a record also holds
 * its rendered message (kilobytes, up to DynamoDB's 400 KB), which a digest never shows.
 */
const digestFactsItemSchema = z.object({
  alertId: z.string(),
  evidenceStatus: alertItemSchema.shape.evidenceStatus,
  acknowledgement: z.object({ atMs: z.number() }).optional(),
});

export interface AlertRef {
  account: string;
  serialno: string;
  ruleId: string;
}

/**
 * What the digest counts of each alert's record, by alert id, read strongly consistent in batches
 * of 100; keys DynamoDB leaves unprocessed (throttling) are asked for again with a growing pause.
 */
export async function readDigestFacts(
  table: TableRef,
  alerts: readonly AlertRef[],
): Promise<Map<string, DigestRecordFacts>> {
  const facts = new Map<string, DigestRecordFacts>();
  const unique = new Map(
    alerts.map((alert) => {
      const key = { pk: keys.account(alert.account), sk: keys.alert(BigInt(alert.serialno), alert.ruleId) };
      return [`${key.pk}|${key.sk}`, key];
    }),
  );
  for (const batch of chunked([...unique.values()], DYNAMODB_MAX_BATCH_GET_KEYS)) {
    let waiting: Record<string, unknown>[] = batch;
    for (let round = 1; waiting.length > 0; round++) {
      if (round > MAX_ROUNDS) throw new Error(`${waiting.length} alert records stayed unprocessed`);
      const response = await table.documents.send(
        new BatchGetCommand({
          RequestItems: {
            [table.tableName]: {
              Keys: waiting,
              ConsistentRead: true,
              ProjectionExpression: "alertId, evidenceStatus, acknowledgement.atMs",
            },
          },
        }),
      );
      for (const item of response.Responses?.[table.tableName] ?? []) {
        const { alertId, evidenceStatus, acknowledgement } = digestFactsItemSchema.parse(item);
        facts.set(alertId, { ...(evidenceStatus && { evidenceStatus }), acknowledged: !!acknowledgement });
      }
      waiting = response.UnprocessedKeys?.[table.tableName]?.Keys ?? [];
      if (waiting.length > 0) await sleep(50 * 2 ** round);
    }
  }
  return facts;
}
