import { UpdateCommand, type UpdateCommandInput } from "@aws-sdk/lib-dynamodb";
import { getItem, type TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";
import { type AlertRecord, alertItemSchema } from "./record.js";

// An alert record is one item that several stores move forward (the alert store, escalation and
// acknowledgement): its key, its read and its update are here once.

/** What names an alert record: its account, serial number and rule. */
export type AlertKey = Pick<AlertRecord, "account" | "serialno" | "ruleId">;

function alertItemKey(alert: AlertKey) {
  return { pk: keys.account(alert.account), sk: keys.alert(alert.serialno, alert.ruleId) };
}

/** The alert record, read strongly consistent; undefined when there is none. */
export async function readAlertItem(table: TableRef, alert: AlertKey): Promise<AlertRecord | undefined> {
  const { pk, sk } = alertItemKey(alert);
  const item = await getItem(table, pk, sk);
  return item ? alertItemSchema.parse(item) : undefined;
}

/** One update of the alert record; a failed condition throws, for `conditionally` to read. */
export async function updateAlertItem(
  table: TableRef,
  alert: AlertKey,
  update: Omit<UpdateCommandInput, "TableName" | "Key">,
): Promise<void> {
  await table.documents.send(
    new UpdateCommand({ TableName: table.tableName, Key: alertItemKey(alert), ...update }),
  );
}
