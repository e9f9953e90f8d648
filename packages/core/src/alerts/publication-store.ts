import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import { getItem, type TableRef } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";

// As long as the alert records it speaks for (alert-store.ts): a replay of their serial numbers,
// after an operator moved the cursor back, still finds them published.
const RETENTION_DAYS = 366;

const publicationItemSchema = z.object({
  decidedAtMs: z.number(),
  published: z.set(z.string()).default(new Set()),
  handedOn: z.set(z.string()).default(new Set()),
});

/**
 * What became of the alerts one chunk of the event log recorded: when the chunk was decided (the
 * time its records and routes are made as of, the same on a replay), which of its alerts went out,
 * and which of those had their jobs sent (evidence, webhooks, escalation).
 */
export type Publication = z.output<typeof publicationItemSchema>;

/** One chunk's publication item: the poller's single write per chunk in place of one per alert. */
export interface Publications {
  /**
   * The chunk starting after `from`: its item, created now if there is none (one request: the
   * decision time is set only by the first run to get here).
   */
  open(account: string, from: bigint, nowMs: number): Promise<Publication>;
  /** The chunk's item if any run opened it. */
  get(account: string, from: bigint): Promise<Publication | undefined>;
  /** Adds alert ids to those that went out. Adding is idempotent, and needs no lease: it is a fact. */
  addPublished(account: string, from: bigint, alertIds: readonly string[]): Promise<void>;
  /** Adds alert ids to those whose jobs were sent. */
  addHandedOn(account: string, from: bigint, alertIds: readonly string[]): Promise<void>;
}

/** Publication items in the account's partition, keyed by the chunk's start (the cursor it read). */
export class PublicationStore implements Publications {
  constructor(private readonly table: TableRef) {}

  async open(account: string, from: bigint, nowMs: number): Promise<Publication> {
    const { Attributes } = await this.table.documents.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: this.#key(account, from),
        UpdateExpression:
          "SET decidedAtMs = if_not_exists(decidedAtMs, :now), expiresAt = if_not_exists(expiresAt, :expires)",
        ExpressionAttributeValues: { ":now": nowMs, ":expires": expiresAfterDays(nowMs, RETENTION_DAYS) },
        ReturnValues: "ALL_NEW",
      }),
    );
    return publicationItemSchema.parse(Attributes);
  }

  async get(account: string, from: bigint): Promise<Publication | undefined> {
    const { pk, sk } = this.#key(account, from);
    const item = await getItem(this.table, pk, sk);
    return item ? publicationItemSchema.parse(item) : undefined;
  }

  addPublished(account: string, from: bigint, alertIds: readonly string[]): Promise<void> {
    return this.#add(account, from, "published", alertIds);
  }

  addHandedOn(account: string, from: bigint, alertIds: readonly string[]): Promise<void> {
    return this.#add(account, from, "handedOn", alertIds);
  }

  async #add(account: string, from: bigint, set: "published" | "handedOn", alertIds: readonly string[]) {
    if (alertIds.length === 0) return;
    await this.table.documents.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: this.#key(account, from),
        UpdateExpression: `ADD ${set} :ids`,
        ExpressionAttributeValues: { ":ids": new Set(alertIds) },
      }),
    );
  }

  #key(account: string, from: bigint) {
    return { pk: keys.account(account), sk: keys.publication(from) };
  }
}
