import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import { FencedError, fenceExpression } from "../cursor/fence.js";
import { conditionally, getItem, type TableRef } from "../store/dynamo.js";
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

/**
 * One chunk's publication item: the poller's single write per chunk in place of one per alert. The
 * writes that decide what is owed are fenced by the poll's lease epoch (cursor/fence.ts), and throw
 * a FencedError once a later poll has written the item.
 */
export interface Publications {
  /**
   * The chunk starting after `from`: its item, created now if there is none (one request: the
   * decision time is set only by the first run to get here). Fenced.
   */
  open(account: string, from: bigint, nowMs: number, epoch: number): Promise<Publication>;
  /**
   * The chunk's item as it stands, claimed by the poll at `epoch` just before it publishes: what it
   * owes is what this returns, never an earlier copy. Fenced.
   */
  claim(account: string, from: bigint, epoch: number): Promise<Publication>;
  /** The chunk's item if any run opened it. */
  get(account: string, from: bigint): Promise<Publication | undefined>;
  /**
   * Adds alert ids to those that went out. Adding is idempotent and true whoever adds it (a fact,
   * not a decision): not fenced, so that a poll that published just before losing its lease still
   * says so.
   */
  addPublished(account: string, from: bigint, alertIds: readonly string[]): Promise<void>;
  /** Adds alert ids to those whose jobs were sent. Fenced. */
  addHandedOn(account: string, from: bigint, alertIds: readonly string[], epoch: number): Promise<void>;
}

/** Publication items in the account's partition, keyed by the chunk's start (the cursor it read). */
export class PublicationStore implements Publications {
  constructor(private readonly table: TableRef) {}

  open(account: string, from: bigint, nowMs: number, epoch: number): Promise<Publication> {
    return this.#fenced(account, from, epoch, "publication-open", {
      update:
        "decidedAtMs = if_not_exists(decidedAtMs, :now), expiresAt = if_not_exists(expiresAt, :expires)",
      values: { ":now": nowMs, ":expires": expiresAfterDays(nowMs, RETENTION_DAYS) },
    });
  }

  claim(account: string, from: bigint, epoch: number): Promise<Publication> {
    return this.#fenced(account, from, epoch, "publication-claim", {
      // An item no run opened has no decision time: nothing of it can be owed (recordChunk opens
      // it before writing a record that names it).
      update: "decidedAtMs = if_not_exists(decidedAtMs, :zero)",
      values: { ":zero": 0 },
    });
  }

  async get(account: string, from: bigint): Promise<Publication | undefined> {
    const { pk, sk } = this.#key(account, from);
    const item = await getItem(this.table, pk, sk);
    return item ? publicationItemSchema.parse(item) : undefined;
  }

  async addPublished(account: string, from: bigint, alertIds: readonly string[]): Promise<void> {
    if (alertIds.length === 0) return;
    await this.table.documents.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: this.#key(account, from),
        UpdateExpression: "ADD published :ids",
        ExpressionAttributeValues: { ":ids": new Set(alertIds) },
      }),
    );
  }

  async addHandedOn(
    account: string,
    from: bigint,
    alertIds: readonly string[],
    epoch: number,
  ): Promise<void> {
    if (alertIds.length === 0) return;
    const fence = fenceExpression(epoch);
    const written = await conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: this.#key(account, from),
          UpdateExpression: `SET ${fence.assignment} ADD handedOn :ids`,
          ConditionExpression: fence.condition,
          ExpressionAttributeNames: fence.names,
          ExpressionAttributeValues: { ":ids": new Set(alertIds), ...fence.values },
        }),
      ),
    );
    if (!written) throw new FencedError(account, epoch, "hand-on-marks");
  }

  /** One fenced update of the item, returning it as it stands after. */
  async #fenced(
    account: string,
    from: bigint,
    epoch: number,
    step: string,
    { update, values }: { update: string; values: Record<string, unknown> },
  ): Promise<Publication> {
    const fence = fenceExpression(epoch);
    let attributes: Record<string, unknown> | undefined;
    const written = await conditionally(async () => {
      const answer = await this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: this.#key(account, from),
          UpdateExpression: `SET ${update}, ${fence.assignment}`,
          ConditionExpression: fence.condition,
          ExpressionAttributeNames: fence.names,
          ExpressionAttributeValues: { ...values, ...fence.values },
          ReturnValues: "ALL_NEW",
        }),
      );
      attributes = answer.Attributes;
    });
    if (!written) throw new FencedError(account, epoch, step);
    return publicationItemSchema.parse(attributes);
  }

  #key(account: string, from: bigint) {
    return { pk: keys.account(account), sk: keys.publication(from) };
  }
}
