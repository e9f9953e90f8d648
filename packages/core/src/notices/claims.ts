import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import { conditionally, getItem, type TableRef } from "../store/dynamo.js";

/** Where a notice's claim lives: its own item (a summary, a digest) or an SMS hour's item. */
export interface ClaimKey {
  pk: string;
  sk: string;
}

/** A notice's claim as stored; all absent: nobody has claimed it yet. */
export interface ClaimState {
  /** When it was claimed, on the wall clock (never the local mode's fast business clock). */
  claimedAtMs?: number;
  sentAt?: string;
  /** Recipients whose message the topic accepted already: a take-over does not send them again. */
  sentTo: ReadonlySet<string>;
}

/**
 * Where a notice's claim is kept, in the terms `deliverOnce` needs: each write conditional, so that
 * of two runs one claims, one takes a lapsed claim over, and a notice marked sent is never sent
 * again. NoticeClaims keeps them on a notice's own item; the evidence notice, on its alert record.
 */
export interface NoticeClaimStore<Key> {
  read(key: Key): Promise<ClaimState>;
  /** The first claim, at `atMs` on the wall clock; `expiresAt` (TTL seconds) for an item it creates. */
  claim(key: Key, atMs: number, expiresAt: number): Promise<boolean>;
  /** Takes over a claim unsent past its lease: conditional on the claim time read, so one run does. */
  takeOver(key: Key, claimedAtMs: number, atMs: number): Promise<boolean>;
  /** Recipients whose message the topic accepted: a take-over does not send them again. */
  markRecipientsSent(key: Key, recipients: readonly string[]): Promise<void>;
  markSent(key: Key, nowMs: number): Promise<void>;
}

const claimItemSchema = z.object({
  summaryClaimedAtMs: z.number().optional(),
  summarySentAt: z.string().optional(),
  summarySentTo: z.set(z.string()).optional(),
});

/**
 * The claims of the notices function's messages (quiet-hour summaries, digests, SMS summaries):
 * attributes on one item per notice, each step one conditional update, so that of two runs one
 * sends, a crashed run's claim is taken over once its lease has run out, and a notice marked sent
 * is never sent again. The same attributes on an item that exists already (an SMS hour's) or not
 * yet (a summary's or a digest's, created by the claim).
 */
export class NoticeClaims implements NoticeClaimStore<ClaimKey> {
  constructor(private readonly table: TableRef) {}

  async read(key: ClaimKey): Promise<ClaimState> {
    const item = claimItemSchema.parse((await getItem(this.table, key.pk, key.sk)) ?? {});
    return {
      ...(item.summaryClaimedAtMs !== undefined && { claimedAtMs: item.summaryClaimedAtMs }),
      ...(item.summarySentAt !== undefined && { sentAt: item.summarySentAt }),
      sentTo: item.summarySentTo ?? new Set(),
    };
  }

  /** The first claim; `expiresAt` (TTL seconds) only where the item has none of its own. */
  claim(key: ClaimKey, atMs: number, expiresAt: number): Promise<boolean> {
    return this.#update(key, {
      UpdateExpression: "SET summaryClaimedAtMs = :now, expiresAt = if_not_exists(expiresAt, :expires)",
      ConditionExpression: "attribute_not_exists(summaryClaimedAtMs) AND attribute_not_exists(summarySentAt)",
      ExpressionAttributeValues: { ":now": atMs, ":expires": expiresAt },
    });
  }

  takeOver(key: ClaimKey, claimedAtMs: number, atMs: number): Promise<boolean> {
    return this.#update(key, {
      UpdateExpression: "SET summaryClaimedAtMs = :now",
      ConditionExpression: "summaryClaimedAtMs = :claimedAt AND attribute_not_exists(summarySentAt)",
      ExpressionAttributeValues: { ":now": atMs, ":claimedAt": claimedAtMs },
    });
  }

  async markRecipientsSent(key: ClaimKey, recipients: readonly string[]): Promise<void> {
    if (recipients.length === 0) return;
    await this.#update(key, {
      UpdateExpression: "ADD summarySentTo :recipients",
      ExpressionAttributeValues: { ":recipients": new Set(recipients) },
    });
  }

  async markSent(key: ClaimKey, nowMs: number): Promise<void> {
    // False only if another run marked it first: sent either way.
    await this.#update(key, {
      UpdateExpression: "SET summarySentAt = :at",
      ConditionExpression: "attribute_not_exists(summarySentAt)",
      ExpressionAttributeValues: { ":at": new Date(nowMs).toISOString() },
    });
  }

  #update(
    key: ClaimKey,
    update: Pick<
      ConstructorParameters<typeof UpdateCommand>[0],
      "UpdateExpression" | "ConditionExpression" | "ExpressionAttributeValues"
    >,
  ): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({ TableName: this.table.tableName, Key: { pk: key.pk, sk: key.sk }, ...update }),
      ),
    );
  }
}
