import { UpdateCommand, type UpdateCommandInput } from "@aws-sdk/lib-dynamodb";
import { conditionally, getItem, itemsWithPrefix, type TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";
import type { ClaimKey } from "./claims.js";
import {
  FIRST_STALE_HEAD,
  type StaleHead,
  type StaleTally,
  staleHeadItemSchema,
  staleTallyItemSchema,
} from "./stale-tally.js";

/**
 * An account's stale summaries in its partition: the head item and one tally item per group and
 * summary. Every write is one conditional update (the emulator has no transactions): a tally moves
 * only from the state it was read in, the head closes a summary once.
 */
export class StaleSummaryStore {
  constructor(private readonly table: TableRef) {}

  async head(account: string): Promise<StaleHead> {
    const item = await getItem(this.table, keys.account(account), keys.staleSummary);
    return item ? { ...staleHeadItemSchema.parse(item), stored: true } : FIRST_STALE_HEAD;
  }

  /** Every group's tally of one summary: one item per group (100 at most), read strongly consistent. */
  async tallies(account: string, summary: number): Promise<StaleTally[]> {
    const tallies: StaleTally[] = [];
    for await (const item of itemsWithPrefix(
      this.table,
      keys.account(account),
      keys.staleTallyPrefix(summary),
    ))
      tallies.push(staleTallyItemSchema.parse(item));
    return tallies;
  }

  /**
   * Writes a group's tally if it still stands where it was read: complete to `before` (undefined:
   * there was none). False when another writer moved it meanwhile.
   */
  putTally(account: string, tally: StaleTally, before: bigint | undefined): Promise<boolean> {
    return this.#update(keys.staleTally(tally.summary, tally.group), account, {
      UpdateExpression:
        "SET #summary = :summary, #group = :group, #notedThrough = :through, #total = :total, #byRule = :byRule, #listed = :listed",
      ConditionExpression: before === undefined ? "attribute_not_exists(pk)" : "#notedThrough = :before",
      ExpressionAttributeNames: names("summary", "group", "notedThrough", "total", "byRule", "listed"),
      ExpressionAttributeValues: {
        ":summary": tally.summary,
        ":group": tally.group,
        ":through": tally.notedThrough.toString(),
        ":total": tally.total,
        ":byRule": tally.byRule,
        ":listed": tally.listed,
        ...(before !== undefined && { ":before": before.toString() }),
      },
    });
  }

  /**
   * Closes the open summary at the cursor of the catch-up that ends it, and marks it being sent: the
   * poller adds to the next one from now on. Once only: false if the head moved since it was read.
   */
  close(account: string, head: StaleHead, cursor: bigint): Promise<boolean> {
    return this.#update(keys.staleSummary, account, {
      UpdateExpression: "SET #open = :next, #openedAfter = :cursor, #sending = :closed",
      ConditionExpression: head.stored
        ? "#open = :closed AND attribute_not_exists(#sending)"
        : "attribute_not_exists(pk)",
      ExpressionAttributeNames: names("open", "openedAfter", "sending"),
      ExpressionAttributeValues: {
        ":next": head.open + 1,
        ":cursor": cursor.toString(),
        ":closed": head.open,
      },
    });
  }

  /** Every group of the closed summary has been told. */
  async sent(account: string, summary: number): Promise<void> {
    await this.#update(keys.staleSummary, account, {
      UpdateExpression: "REMOVE #sending",
      ConditionExpression: "#sending = :summary",
      ExpressionAttributeNames: names("sending"),
      ExpressionAttributeValues: { ":summary": summary },
    });
  }

  /** Where a group's notice of the summary is claimed: its tally item. */
  claimKey(account: string, summary: number, group: string): ClaimKey {
    return { pk: keys.account(account), sk: keys.staleTally(summary, group) };
  }

  #update(
    sk: string,
    account: string,
    update: Omit<UpdateCommandInput, "TableName" | "Key">,
  ): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.account(account), sk },
          ...update,
        }),
      ),
    );
  }
}

/** Every name as a placeholder: DynamoDB reserves many plain words ("group" among them). */
function names(...attributes: string[]): Record<string, string> {
  return Object.fromEntries(attributes.map((name) => [`#${name}`, name]));
}
