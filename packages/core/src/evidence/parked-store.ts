import { DeleteCommand, PutCommand, paginateQuery, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import { conditionally, getItem, type TableRef } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import { evidenceJobSchema } from "./job.js";
import { deviceKeySegment } from "./layout.js";
import type { ParkedEvidence, ParkedJob } from "./ports.js";

/**
 * Past its deadline the sweep gives a parked job up; the TTL only clears what no sweep will reach
 * (an account removed from the stage), long after.
 */
const KEPT_PAST_DEADLINE_DAYS = 30;

const parkedItemSchema = z.object({
  /** The job as JSON: the device cloud's strings travel inside it exactly as received. */
  job: z.string().transform((json) => evidenceJobSchema.parse(JSON.parse(json))),
  parkedAtMs: z.number(),
  offlineSinceMs: z.number(),
  keptUntilMs: z.number(),
  retentionDays: z.number().nullable(),
  atRiskNoticeSent: z.boolean().default(false),
});

/** Parked evidence jobs in the account's partition, `PARKED#<device>#<serialno>#<rule>` (store/keys.ts). */
export class ParkedJobStore implements ParkedEvidence {
  constructor(private readonly table: TableRef) {}

  async park(parked: Omit<ParkedJob, "atRiskNoticeSent">): Promise<ParkedJob> {
    const key = keyOf(parked);
    const created = await conditionally(() =>
      this.table.documents.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: {
            ...key,
            job: JSON.stringify(parked.job),
            parkedAtMs: parked.parkedAtMs,
            offlineSinceMs: parked.offlineSinceMs,
            keptUntilMs: parked.keptUntilMs,
            retentionDays: parked.retentionDays,
            atRiskNoticeSent: false,
            expiresAt: expiresAfterDays(parked.keptUntilMs, KEPT_PAST_DEADLINE_DAYS),
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
    );
    if (created) return { ...parked, atRiskNoticeSent: false };
    const kept = await getItem(this.table, key.pk, key.sk);
    // Gone between the two requests (woken or given up meanwhile): what was asked is what holds.
    return kept ? parkedItemSchema.parse(kept) : { ...parked, atRiskNoticeSent: false };
  }

  async anyOf(account: string): Promise<boolean> {
    const { Items = [] } = await this.table.documents.send(
      new QueryCommand({
        TableName: this.table.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": keys.account(account), ":prefix": keys.parkedEvidencePrefix() },
        ProjectionExpression: "pk",
        ConsistentRead: true,
        Limit: 1,
      }),
    );
    return Items.length > 0;
  }

  ofDevice(account: string, deviceid: string): AsyncIterable<ParkedJob[]> {
    return this.#pages(account, keys.parkedEvidencePrefix(deviceKeySegment(deviceid)));
  }

  ofAccount(account: string): AsyncIterable<ParkedJob[]> {
    return this.#pages(account, keys.parkedEvidencePrefix());
  }

  async remove(parked: ParkedJob): Promise<void> {
    await this.table.documents.send(
      new DeleteCommand({ TableName: this.table.tableName, Key: keyOf(parked) }),
    );
  }

  async markAtRiskNoticeSent(parked: ParkedJob): Promise<void> {
    // Conditional on the item: an update would otherwise create a job-less item for a job gone meanwhile.
    await conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: keyOf(parked),
          UpdateExpression: "SET atRiskNoticeSent = :sent",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":sent": true },
        }),
      ),
    );
  }

  /** DynamoDB's pages (1 MB each at most), parsed; read strongly consistent, as a park just written must be found. */
  async *#pages(account: string, prefix: string): AsyncGenerator<ParkedJob[]> {
    const pages = paginateQuery(
      { client: this.table.documents },
      {
        TableName: this.table.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": keys.account(account), ":prefix": prefix },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) {
      const items = (page.Items ?? []).map((item) => parkedItemSchema.parse(item));
      if (items.length > 0) yield items;
    }
  }
}

function keyOf({ job }: Pick<ParkedJob, "job">) {
  return {
    pk: keys.account(job.account),
    sk: keys.parkedEvidence(deviceKeySegment(job.deviceid), BigInt(job.serialno), job.ruleId),
  };
}
