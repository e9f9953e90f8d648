import { createHash } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { RejectedEvent } from "../devicecloud/client.js";
import type { TableRef } from "../store/dynamo.js";
import { expiresAfterDays, keys, sortableSerial } from "../store/keys.js";
import { graphemePrefix } from "../text/graphemes.js";
import type { RejectedEvents } from "./ports.js";

const RETENTION_DAYS = 90;
/**
 * How much of a rejected event is kept: enough to see what was wrong with it. The service may send
 * an event of any size, and an item over DynamoDB's 400 KB would fail this write at every retry.
 */
const RAW_KEPT_CHARS = 64 * 1024;

/**
 * Events the service sent that fail validation, kept for inspection (whole, unless over 64 Ki
 * characters: then their start, size and digest). Keyed by serial number when it could be read,
 * else by a digest of the payload, so a replay overwrites instead of adding.
 */
export class RejectedEventStore implements RejectedEvents {
  constructor(private readonly table: TableRef) {}

  async record(account: string, rejected: RejectedEvent, nowMs: number): Promise<void> {
    const raw = JSON.stringify(rejected.raw) ?? "undefined";
    const digest = createHash("sha256").update(raw).digest("hex");
    const reference =
      rejected.serialno === undefined ? `unknown#${digest.slice(0, 32)}` : sortableSerial(rejected.serialno);
    await this.table.documents.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: {
          pk: keys.account(account),
          sk: keys.rejected(reference),
          ...(rejected.serialno !== undefined && { serialno: rejected.serialno.toString() }),
          ...(raw.length > RAW_KEPT_CHARS
            ? {
                raw: graphemePrefix(raw, RAW_KEPT_CHARS),
                rawTruncated: { chars: raw.length, sha256: digest },
              }
            : { raw }),
          issues: rejected.issues.map((issue) => `${issue.path}: ${issue.message}`),
          receivedAt: new Date(nowMs).toISOString(),
          expiresAt: expiresAfterDays(nowMs, RETENTION_DAYS),
        },
      }),
    );
  }
}
