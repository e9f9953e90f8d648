import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionally, getItem, itemsWithPrefix, type TableRef } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import { deviceHealthSchema, recorderAuditCursorSchema } from "./health-items.js";
import type { RecorderHealth } from "./ports.js";

/**
 * A device gone from the fleet stops being audited: its item expires this long after its last
 * audit or estimate, so the digest stops counting it.
 */
const DEVICE_ITEM_DAYS = 35;

/** The recorder audit's items in the account's partition: its cursor, and one item per device. */
export class RecorderHealthStore implements RecorderHealth {
  constructor(private readonly table: TableRef) {}

  async cursor(account: string) {
    const item = await getItem(this.table, keys.account(account), keys.recorderAuditCursor);
    return item ? recorderAuditCursorSchema.parse(item) : undefined;
  }

  moveCursor(...[account, next, readVersion]: Parameters<RecorderHealth["moveCursor"]>) {
    return conditionally(() =>
      this.table.documents.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: {
            pk: keys.account(account),
            sk: keys.recorderAuditCursor,
            ...next,
            version: (readVersion ?? 0) + 1,
          },
          ...(readVersion === undefined
            ? { ConditionExpression: "attribute_not_exists(pk)" }
            : {
                ConditionExpression: "version = :read",
                ExpressionAttributeValues: { ":read": readVersion },
              }),
        }),
      ),
    );
  }

  // Field by field: the audit and the retention estimate each set their own fields of the item.
  saveAudit(...[account, deviceid, audit]: Parameters<RecorderHealth["saveAudit"]>) {
    return this.#set(account, deviceid, { ...audit, deviceid }, audit.auditedAtMs);
  }

  saveRetention(...[account, deviceid, estimate, atMs]: Parameters<RecorderHealth["saveRetention"]>) {
    return this.#set(
      account,
      deviceid,
      {
        deviceid,
        retentionDays: estimate.days,
        retentionAtLeast: estimate.atLeast,
        retentionEstimatedAtMs: atMs,
      },
      atMs,
    );
  }

  async device(account: string, deviceid: string) {
    const item = await getItem(this.table, keys.account(account), keys.recorderDevice(deviceid));
    return item ? deviceHealthSchema.parse(item) : undefined;
  }

  async *devices(account: string) {
    for await (const item of itemsWithPrefix(this.table, keys.account(account), keys.recorderDevicePrefix))
      yield deviceHealthSchema.parse(item);
  }

  async #set(
    account: string,
    deviceid: string,
    fields: Record<string, unknown>,
    atMs: number,
  ): Promise<void> {
    const values = { ...fields, expiresAt: expiresAfterDays(atMs, DEVICE_ITEM_DAYS) };
    const names = Object.keys(values);
    await this.table.documents.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: { pk: keys.account(account), sk: keys.recorderDevice(deviceid) },
        UpdateExpression: `SET ${names.map((_, index) => `#f${index} = :v${index}`).join(", ")}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#f${index}`, name])),
        ExpressionAttributeValues: Object.fromEntries(
          names.map((name, index) => [`:v${index}`, values[name as keyof typeof values]]),
        ),
      }),
    );
  }
}
