import { createHash } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { RejectedEvent } from "../devicecloud/client.js";
import type { TableRef } from "../store/dynamo.js";
import { expiresAfterDays, keys, sortableSerial } from "../store/keys.js";
import type { RejectedEvents } from "./ports.js";

const RETENTION_DAYS = 90;

/**
 * Events the service sent that fail validation, kept whole for inspection. Keyed by serial number
 * when it could be read, else by a digest of the payload, so a replay overwrites instead of adding.
 */
export class RejectedEventStore implements RejectedEvents {
  constructor(private readonly table: TableRef) {}

  async record(account: string, rejected: RejectedEvent, nowMs: number): Promise<void> {
    const raw = JSON.stringify(rejected.raw) ?? "undefined";
    const reference =
      rejected.serialno === undefined
        ? `unknown#${createHash("sha256").update(raw).digest("hex").slice(0, 32)}`
        : sortableSerial(rejected.serialno);
    await this.table.documents.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: {
          pk: keys.account(account),
          sk: keys.rejected(reference),
          ...(rejected.serialno !== undefined && { serialno: rejected.serialno.toString() }),
          raw,
          issues: rejected.issues.map((issue) => `${issue.path}: ${issue.message}`),
          receivedAt: new Date(nowMs).toISOString(),
          expiresAt: expiresAfterDays(nowMs, RETENTION_DAYS),
        },
      }),
    );
  }
}
