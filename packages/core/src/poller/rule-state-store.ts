import { GetCommand, paginateQuery, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import type { RuleState } from "../rules/evaluator.js";
import type { TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";

const ruleStateItemSchema = z.object({
  deviceid: z.string(),
  ruleId: z.string(),
  seenSerialno: z.string().transform((digits) => BigInt(digits)),
  lastAlertSerialno: z
    .string()
    .transform((digits) => BigInt(digits))
    .optional(),
  lastAlertEventMs: z.number().optional(),
  suppressed: z.number().int().default(0),
});

export type RuleStateField = keyof RuleState;

/** The cooldown state of every rule and device of an account. */
export class RuleStateStore {
  constructor(private readonly table: TableRef) {}

  /** All states of the account, by `stateKey(deviceid, ruleId)`: read once per run. */
  async loadAll(account: string): Promise<Map<string, RuleState>> {
    const states = new Map<string, RuleState>();
    const pages = paginateQuery(
      { client: this.table.documents },
      {
        TableName: this.table.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": keys.account(account), ":prefix": keys.ruleStatePrefix },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        const { deviceid, ruleId, ...state } = ruleStateItemSchema.parse(item);
        states.set(stateKey(deviceid, ruleId), state);
      }
    }
    return states;
  }

  async get(account: string, deviceid: string, ruleId: string): Promise<RuleState | undefined> {
    const { Item } = await this.table.documents.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: { pk: keys.account(account), sk: keys.ruleState(deviceid, ruleId) },
        ConsistentRead: true,
      }),
    );
    if (!Item) return undefined;
    const { deviceid: _device, ruleId: _rule, ...state } = ruleStateItemSchema.parse(Item);
    return state;
  }

  /**
   * Writes only the given fields: the poller and the Offline confirmation each own different
   * fields of an Offline rule's state, and must not overwrite each other's.
   */
  async save(
    account: string,
    deviceid: string,
    ruleId: string,
    state: RuleState,
    fields: readonly RuleStateField[],
  ): Promise<void> {
    const assignments = ["deviceid = :deviceid", "ruleId = :ruleId"];
    const values: Record<string, unknown> = { ":deviceid": deviceid, ":ruleId": ruleId };
    if (!fields.includes("seenSerialno")) {
      // The Offline confirmation may be first to write a state: it must still be complete.
      assignments.push("seenSerialno = if_not_exists(seenSerialno, :zero)");
      values[":zero"] = "0";
    }
    for (const field of fields) {
      const value = state[field];
      if (value === undefined) continue;
      assignments.push(`${field} = :${field}`);
      values[`:${field}`] = typeof value === "bigint" ? value.toString() : value;
    }
    await this.table.documents.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: { pk: keys.account(account), sk: keys.ruleState(deviceid, ruleId) },
        UpdateExpression: `SET ${assignments.join(", ")}`,
        ExpressionAttributeValues: values,
      }),
    );
  }
}

export function stateKey(deviceid: string, ruleId: string): string {
  return `${ruleId}\u0000${deviceid}`;
}
