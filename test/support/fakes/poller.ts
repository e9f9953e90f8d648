import type { LeaseGuard } from "@fleet-alerts/core/cursor";
import type { RejectedEvent } from "@fleet-alerts/core/devicecloud";
import {
  ownsWholeState,
  type RejectedEvents,
  type RuleStateChange,
  type RuleStates,
  stateKey,
} from "@fleet-alerts/core/poller";
import type { RuleState } from "@fleet-alerts/core/rules";

/**
 * Rule states in memory, as RuleStateStore keeps them: a change that owns every field replaces the
 * state, any other writes only its fields (a state first written so starts at seenSerialno 0). The
 * poller's saves are fenced: whole states after the account's fence item took the poll's epoch and
 * its time was checked (a batch carries no condition); a partial one is refused once a later epoch
 * wrote it.
 */
export class FakeRuleStates implements RuleStates {
  readonly #accounts = new Map<string, Map<string, RuleState>>();
  readonly #fences = new Map<string, number>();

  async loadAll(account: string): Promise<Map<string, RuleState>> {
    return structuredClone(this.#states(account));
  }

  async get(account: string, deviceid: string, ruleId: string): Promise<RuleState | undefined> {
    return structuredClone(this.#states(account).get(stateKey(deviceid, ruleId)));
  }

  async saveAll(account: string, changes: readonly RuleStateChange[], guard: LeaseGuard): Promise<void> {
    if (changes.some((change) => ownsWholeState(change.fields))) {
      // The account's rule-state fence item, then the poll's time: a batch carries no condition.
      if ((this.#fences.get(account) ?? 0) > guard.epoch) throw guard.fenced("rule-states");
      this.#fences.set(account, guard.epoch);
      guard.check("rule-states");
    }
    for (const { deviceid, ruleId, state, fields } of changes) {
      const fenceKey = `${account}/${stateKey(deviceid, ruleId)}`;
      const whole = ownsWholeState(fields);
      if (!whole && (this.#fences.get(fenceKey) ?? 0) > guard.epoch) throw guard.fenced("rule-states");
      this.#fences.set(fenceKey, guard.epoch);
      if (whole) this.#states(account).set(stateKey(deviceid, ruleId), structuredClone(state));
      else await this.save(account, deviceid, ruleId, state, fields);
    }
  }

  async save(...[account, deviceid, ruleId, state, fields]: Parameters<RuleStates["save"]>): Promise<void> {
    const key = stateKey(deviceid, ruleId);
    const next: Record<string, unknown> = {
      seenSerialno: 0n,
      suppressed: 0,
      ...this.#states(account).get(key),
    };
    for (const field of fields) if (state[field] !== undefined) next[field] = state[field];
    this.#states(account).set(key, next as unknown as RuleState);
  }

  #states(account: string): Map<string, RuleState> {
    const states = this.#accounts.get(account) ?? new Map<string, RuleState>();
    this.#accounts.set(account, states);
    return states;
  }
}

/** Rejected events in memory, by serial number when readable (a replay overwrites), else by payload. */
export class FakeRejectedEvents implements RejectedEvents {
  readonly recorded = new Map<string, RejectedEvent>();

  async record(account: string, rejected: RejectedEvent, _nowMs: number): Promise<void> {
    const reference = rejected.serialno?.toString() ?? JSON.stringify(rejected.raw);
    this.recorded.set(`${account}/${reference}`, structuredClone(rejected));
  }
}
