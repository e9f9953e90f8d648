import type { LeaseGuard } from "../cursor/fence.js";
import type { RejectedEvent } from "../devicecloud/client.js";
import type { RuleState } from "../rules/evaluator.js";

export type RuleStateField = keyof RuleState;

export interface RuleStateChange {
  deviceid: string;
  ruleId: string;
  state: RuleState;
  /** The fields this writer owns; every field means the item is this writer's alone. */
  fields: readonly RuleStateField[];
}

/**
 * The cooldown state of every rule and device of an account. Saves are field-wise: the poller and
 * the Offline confirmation each own different fields of an Offline rule's state.
 */
export interface RuleStates {
  /** All states of the account, by `stateKey(deviceid, ruleId)`: read once per run. */
  loadAll(account: string): Promise<Map<string, RuleState>>;
  get(account: string, deviceid: string, ruleId: string): Promise<RuleState | undefined>;
  /**
   * Saves each change's fields (all of them: the whole state), fenced by the poll's lease (`guard`:
   * its epoch on every item, its time checked before a batch); throws if any is left unwritten, and
   * a FencedError once a later poll has written one of them.
   */
  saveAll(account: string, changes: readonly RuleStateChange[], guard: LeaseGuard): Promise<void>;
  /** Writes only the given fields; a state first written this way gets seenSerialno 0. */
  save(
    account: string,
    deviceid: string,
    ruleId: string,
    state: RuleState,
    fields: readonly RuleStateField[],
  ): Promise<void>;
}

/** Events the service sent that fail validation, kept for inspection; a replay overwrites. */
export interface RejectedEvents {
  record(account: string, rejected: RejectedEvent, nowMs: number): Promise<void>;
}
