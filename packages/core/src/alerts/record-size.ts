import { DYNAMODB_MAX_ITEM_BYTES } from "../aws-limits.js";
import { itemBytes } from "../store/dynamo.js";
import type { NewAlertRecord } from "./record.js";

/**
 * Room kept in a record for what is written to it after it is made: its route and recipients, the
 * evidence keys, escalation and acknowledgement fields. An update that took the item past
 * DynamoDB's limit would fail at every retry.
 */
const GROWTH_BYTES = 64 * 1024;
export const ALERT_RECORD_MAX_BYTES = DYNAMODB_MAX_ITEM_BYTES - GROWTH_BYTES;

/**
 * Why a new record cannot be stored, if it cannot: the event as received (kept for the evidence)
 * and the rendered message (with the names as sent) are the device cloud's, and may be of any size.
 */
export function oversizedRecord(record: NewAlertRecord): string | undefined {
  const bytes = itemBytes(record);
  return bytes > ALERT_RECORD_MAX_BYTES
    ? `alert record of about ${bytes} bytes, over the ${ALERT_RECORD_MAX_BYTES} a record may start with (DynamoDB takes ${DYNAMODB_MAX_ITEM_BYTES})`
    : undefined;
}
