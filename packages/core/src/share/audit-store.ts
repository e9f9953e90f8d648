import { randomBytes } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { pageWithPrefix, type TableRef } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import { parseAlertId } from "./alert-id.js";
import { checkedLimit, type ListingPage, type ListingPageRequest } from "./listing-page.js";
import type { AccessRecords } from "./ports.js";
import { type AccessAction, type AuditEntry, auditEntrySchema } from "./schemas.js";

// Over a year, so that a claim raised at the anniversary of an incident still finds who looked.
const RETENTION_DAYS = 400;
// A user agent is the visitor's to write: bounded, so no request can grow an item at will.
const MAX_USER_AGENT_LENGTH = 256;

export interface AccessToRecord {
  alertId: string;
  tokenId: string;
  action: AccessAction;
  userAgent: string;
  atMs: number;
  /** Who asked and why, for an `evidence-request`. */
  by?: string;
  reason?: string;
}

/** Every access through a share link, kept per alert in its account's partition. */
export class AccessAudit implements AccessRecords {
  constructor(private readonly table: TableRef) {}

  async record(access: AccessToRecord): Promise<void> {
    const alert = parseAlertId(access.alertId);
    const entry: AuditEntry = { ...access, userAgent: access.userAgent.slice(0, MAX_USER_AGENT_LENGTH) };
    // Random digits after the time: two accesses in the same millisecond are two entries.
    const sk = `${keys.auditPrefix(alert.serialno, alert.ruleId)}${new Date(access.atMs).toISOString()}#${randomBytes(2).toString("hex")}`;
    await this.table.documents.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: {
          pk: keys.account(alert.account),
          sk,
          ...entry,
          expiresAt: expiresAfterDays(access.atMs, RETENTION_DAYS),
        },
      }),
    );
  }

  /**
   * A page of the alert's accesses, oldest first (the sort key orders them by time). `next`, the
   * `<ISO time>#<random hex>` of the page's last entry, continues after it; an ISO time alone lists
   * the accesses from that time on.
   */
  async list(alertId: string, page: ListingPageRequest): Promise<ListingPage<AuditEntry>> {
    const alert = parseAlertId(alertId);
    const { items, next } = await pageWithPrefix(
      this.table,
      keys.account(alert.account),
      keys.auditPrefix(alert.serialno, alert.ruleId),
      { limit: checkedLimit(page.limit), after: page.after },
    );
    return { entries: items.map((item) => auditEntrySchema.parse(item)), ...(next && { next }) };
  }
}
