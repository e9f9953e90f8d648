import { alertIdOf } from "../alerts/record.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import type { ObservationOf } from "../observer.js";
import { evaluateEvent, type RuleState } from "../rules/evaluator.js";
import type { Rule } from "../rules/schema.js";
import type { AccountSettings } from "./dependencies.js";
import type { RuleStateChange, RuleStateField } from "./ports.js";
import { RULE_STATE_FIELDS, stateKey } from "./rule-state.js";

export interface ChunkInput {
  /** The chunk's events, in ascending serialno. */
  events: readonly DeviceEvent[];
  settings: Pick<AccountSettings, "account" | "rules">;
  /** The rule states as the chunk starts, by `stateKey(deviceid, ruleId)`. */
  states: Pick<ReadonlyMap<string, RuleState>, "get">;
  /** The business clock's time of the decision: event ages are measured against it. */
  nowMs: number;
}

/** An Offline event's confirmation to schedule, or an Online event's cancellation of a pending one. */
export type OfflineStep =
  | { kind: "confirm-offline"; event: DeviceEvent; rule: Rule; dueAtMs: number }
  | { kind: "cancel-offline"; event: DeviceEvent; rule: Rule };

export type ChunkObservation = ObservationOf<"alert-suppressed"> | ObservationOf<"alert-stale">;

/** An alert to record: `pending` to be published, `stale` recorded only (the event came too late). */
export interface ChunkAlert {
  event: DeviceEvent;
  rule: Rule;
  status: "pending" | "stale";
  /** Repeats suppressed by the cooldown since the previous alert of this rule and device. */
  suppressedBefore: number;
}

/** Everything one chunk must do, decided before any of it is done. */
export interface ChunkDecision {
  /** The alerts to record, in event order (their records are built once their context is known). */
  alerts: ChunkAlert[];
  offlineSteps: OfflineStep[];
  /** The last state of each rule and device the chunk changed, with the fields the poller owns. */
  states: RuleStateChange[];
  /** What to report, in event order. */
  observations: ChunkObservation[];
  suppressed: number;
  stale: number;
}

// An Offline rule's cooldown fields belong to its confirmation, which alerts later.
const OFFLINE_RULE_FIELDS: readonly RuleStateField[] = ["seenSerialno"];

/**
 * Decides a chunk of events under the account's rules: pure (no I/O, no clock), so the same events,
 * states and time always give the same decision. Each event sees the states the events before it
 * in the chunk left.
 */
export function decideChunk({ events, settings, states, nowMs }: ChunkInput): ChunkDecision {
  const { account, rules } = settings;
  const changed = new Map<string, RuleStateChange>();
  const decision: ChunkDecision = {
    alerts: [],
    offlineSteps: [],
    states: [],
    observations: [],
    suppressed: 0,
    stale: 0,
  };
  for (const event of events) {
    const stateOf = (ruleId: string) => {
      const key = stateKey(event.deviceid, ruleId);
      return changed.get(key)?.state ?? states.get(key);
    };
    const evaluation = evaluateEvent(event, rules, stateOf, nowMs);
    const ids = { account, serialno: event.serialno.toString(), deviceid: event.deviceid };
    for (const step of evaluation.decisions) {
      switch (step.kind) {
        case "alert":
          decision.alerts.push({
            event,
            rule: step.rule,
            status: "pending",
            suppressedBefore: step.suppressedBefore,
          });
          break;
        case "stale":
          decision.alerts.push({ event, rule: step.rule, status: "stale", suppressedBefore: 0 });
          decision.stale++;
          decision.observations.push({
            type: "alert-stale",
            account,
            alertId: alertIdOf(account, event.serialno, step.rule.id),
            serialno: ids.serialno,
            deviceid: event.deviceid,
            rule: step.rule.id,
          });
          break;
        case "suppressed":
          decision.suppressed++;
          decision.observations.push({
            type: "alert-suppressed",
            ...ids,
            rule: step.rule.id,
            suppressedSoFar: step.suppressedSoFar,
          });
          break;
        case "confirm-offline":
          decision.offlineSteps.push({ kind: step.kind, event, rule: step.rule, dueAtMs: step.dueAtMs });
          break;
        case "cancel-offline":
          decision.offlineSteps.push({ kind: step.kind, event, rule: step.rule });
          break;
      }
    }
    for (const [ruleId, state] of evaluation.changed) {
      const rule = rules.find((candidate) => candidate.id === ruleId);
      const fields = rule?.offlineForMinutes === undefined ? RULE_STATE_FIELDS : OFFLINE_RULE_FIELDS;
      changed.set(stateKey(event.deviceid, ruleId), { deviceid: event.deviceid, ruleId, state, fields });
    }
  }
  decision.states = [...changed.values()];
  return decision;
}
