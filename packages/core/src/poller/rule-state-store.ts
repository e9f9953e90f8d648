import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import { fenceExpression, type LeaseGuard } from "../cursor/fence.js";
import type { RuleState } from "../rules/evaluator.js";
import {
  type BatchRetry,
  conditionally,
  getItem,
  itemsWithPrefix,
  putAll,
  type TableRef,
} from "../store/dynamo.js";
import { keys } from "../store/keys.js";
import type { RuleStateChange, RuleStateField, RuleStates } from "./ports.js";
import { ownsWholeState, stateKey } from "./rule-state.js";

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

/** The cooldown state of every rule and device of an account. */
export class RuleStateStore implements RuleStates {
  /** `retry`: how often, and after what first delay (doubling), unprocessed batch items are sent again. */
  constructor(
    private readonly table: TableRef,
    private readonly retry: BatchRetry = { attempts: 5, delayMs: 50 },
  ) {}

  /** All states of the account, by `stateKey(deviceid, ruleId)`: read once per run. */
  async loadAll(account: string): Promise<Map<string, RuleState>> {
    const states = new Map<string, RuleState>();
    for await (const item of itemsWithPrefix(this.table, keys.account(account), keys.ruleStatePrefix)) {
      const { deviceid, ruleId, ...state } = ruleStateItemSchema.parse(item);
      states.set(stateKey(deviceid, ruleId), state);
    }
    return states;
  }

  async get(account: string, deviceid: string, ruleId: string): Promise<RuleState | undefined> {
    const Item = await getItem(this.table, keys.account(account), keys.ruleState(deviceid, ruleId));
    if (!Item) return undefined;
    const { deviceid: _device, ruleId: _rule, ...state } = ruleStateItemSchema.parse(Item);
    return state;
  }

  /**
   * Saves many states: those that are the writer's alone are written whole, 25 per BatchWriteItem
   * (a quarter of the requests of one update each, on the poller's hottest path); the others are
   * updated field by field. Throws if any is left unwritten, so that the caller's step is retried.
   * A batch carries no condition: it is written only after the account's rule-state fence item took
   * the poll's epoch (one fenced write, refused once a later poll has saved states) and the poll's
   * time was checked (the lease outlives the check by its margin). A partial update carries the
   * fence itself.
   */
  async saveAll(account: string, changes: readonly RuleStateChange[], guard: LeaseGuard): Promise<void> {
    const whole = changes.filter((change) => ownsWholeState(change.fields));
    const partial = changes.filter((change) => !whole.includes(change));
    if (whole.length > 0) {
      if (!(await this.#takeFence(account, guard.epoch))) throw guard.fenced("rule-states");
      guard.check("rule-states");
    }
    await Promise.all([
      putAll(
        this.table,
        whole.map((change) => this.#item(account, change, guard.epoch)),
        this.retry,
      ),
      ...partial.map(async ({ deviceid, ruleId, state, fields }) => {
        if (!(await this.#update(account, deviceid, ruleId, state, fields, guard.epoch)))
          throw guard.fenced("rule-states");
      }),
    ]);
  }

  /** The account's rule-state fence item takes `epoch`; false when a later epoch holds it. */
  #takeFence(account: string, epoch: number): Promise<boolean> {
    const fence = fenceExpression(epoch);
    return conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.account(account), sk: keys.ruleStatesFence },
          UpdateExpression: `SET ${fence.assignment}`,
          ConditionExpression: fence.condition,
          ExpressionAttributeNames: fence.names,
          ExpressionAttributeValues: fence.values,
        }),
      ),
    );
  }

  #item(
    account: string,
    { deviceid, ruleId, state }: RuleStateChange,
    epoch: number,
  ): Record<string, unknown> {
    return {
      pk: keys.account(account),
      sk: keys.ruleState(deviceid, ruleId),
      fence: epoch,
      deviceid,
      ruleId,
      seenSerialno: state.seenSerialno.toString(),
      ...(state.lastAlertSerialno !== undefined && { lastAlertSerialno: state.lastAlertSerialno.toString() }),
      ...(state.lastAlertEventMs !== undefined && { lastAlertEventMs: state.lastAlertEventMs }),
      suppressed: state.suppressed,
    };
  }

  /**
   * Writes only the given fields: the poller and the Offline confirmation each own different
   * fields of an Offline rule's state, and must not overwrite each other's. The confirmation's
   * writes are not the poller's: they leave the fence as it is.
   */
  async save(
    account: string,
    deviceid: string,
    ruleId: string,
    state: RuleState,
    fields: readonly RuleStateField[],
  ): Promise<void> {
    await this.#update(account, deviceid, ruleId, state, fields);
  }

  /** The fields' update; with `epoch`, fenced by it (false when a later epoch wrote the item). */
  #update(
    account: string,
    deviceid: string,
    ruleId: string,
    state: RuleState,
    fields: readonly RuleStateField[],
    epoch?: number,
  ): Promise<boolean> {
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
    const fence = epoch === undefined ? undefined : fenceExpression(epoch);
    if (fence) assignments.push(fence.assignment);
    return conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk: keys.account(account), sk: keys.ruleState(deviceid, ruleId) },
          UpdateExpression: `SET ${assignments.join(", ")}`,
          ...(fence && { ConditionExpression: fence.condition, ExpressionAttributeNames: fence.names }),
          ExpressionAttributeValues: { ...values, ...fence?.values },
        }),
      ),
    );
  }
}
