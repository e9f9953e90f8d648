import { EVENT_CODES } from "../devicecloud/codes.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import { ruleAppliesTo } from "./match.js";
import type { Rule } from "./schema.js";

/**
 * What the poller remembers per account, device and rule. Serial numbers make replays harmless:
 * an event at or below `seenSerialno` has been decided before and changes nothing.
 */
export interface RuleState {
  /** The last event of this rule and device that raised an alert. */
  lastAlertSerialno?: bigint;
  lastAlertEventMs?: number;
  /** Repeats suppressed by the cooldown since that alert. */
  suppressed: number;
  seenSerialno: bigint;
}

export type Decision =
  /** Raise an alert; `suppressedBefore` repeats were held back since the previous one. */
  | { kind: "alert"; rule: Rule; suppressedBefore: number }
  /** A repeat inside the cooldown: counted, not sent. */
  | { kind: "suppressed"; rule: Rule; suppressedSoFar: number }
  /** Older than the rule's staleness limit (a backlog, say): recorded, not sent. */
  | { kind: "stale"; rule: Rule; ageSeconds: number }
  /** An Offline event whose rule wants the device offline for a while: check again at `dueAtMs`. */
  | { kind: "confirm-offline"; rule: Rule; dueAtMs: number }
  /** An Online event: a pending Offline confirmation of this rule for the device is void. */
  | { kind: "cancel-offline"; rule: Rule };

export interface Evaluation {
  decisions: Decision[];
  /** The states this event changed, by rule id, to be saved once the decisions are carried out. */
  changed: ReadonlyMap<string, RuleState>;
}

// Most events match no rule: they share this result instead of allocating one each.
const NOTHING_CHANGED: ReadonlyMap<string, RuleState> = new Map();

/**
 * Decides what one event means under the rules: pure, so that the same event, rules, states and
 * clock always give the same decisions. `stateOf` gives the current state of a rule for this
 * event's device.
 */
export function evaluateEvent(
  event: Pick<DeviceEvent, "serialno" | "deviceid" | "appdevid" | "eventtime">,
  rules: readonly Rule[],
  stateOf: (ruleId: string) => RuleState | undefined,
  nowMs: number,
): Evaluation {
  const decisions: Decision[] = [];
  let changed: Map<string, RuleState> | undefined;
  let eventMs: number | undefined;
  for (const rule of rules) {
    if (event.appdevid === EVENT_CODES.Online && rule.offlineForMinutes !== undefined) {
      if (ruleAppliesTo(rule, { appdevid: EVENT_CODES.Offline, deviceid: event.deviceid })) {
        decisions.push({ kind: "cancel-offline", rule });
      }
    }
    if (!ruleAppliesTo(rule, event)) continue;
    const state = stateOf(rule.id);
    if (state && event.serialno <= state.seenSerialno) continue; // decided in an earlier run
    eventMs ??= Date.parse(event.eventtime);
    changed ??= new Map();
    const seen: RuleState = { ...(state ?? { suppressed: 0 }), seenSerialno: event.serialno };
    const ageSeconds = Math.floor((nowMs - eventMs) / 1000);
    if (rule.staleAfterSeconds !== undefined && ageSeconds > rule.staleAfterSeconds) {
      decisions.push({ kind: "stale", rule, ageSeconds });
      changed.set(rule.id, seen);
    } else if (rule.offlineForMinutes !== undefined && event.appdevid === EVENT_CODES.Offline) {
      // The device has been offline since the event: confirm N minutes after it (at once, for a backlog).
      decisions.push({ kind: "confirm-offline", rule, dueAtMs: eventMs + rule.offlineForMinutes * 60_000 });
      changed.set(rule.id, seen);
    } else {
      const outcome = applyCooldown(rule, seen, event.serialno, eventMs);
      decisions.push(outcome.decision);
      changed.set(rule.id, outcome.state);
    }
  }
  return { decisions, changed: changed ?? NOTHING_CHANGED };
}

/**
 * The cooldown alone: an alert unless an alert of the same rule and device was raised for an event
 * less than `cooldownSeconds` apart (either way: late uploads make event times arrive out of
 * order). Used by the evaluator and by the Offline confirmation, which alerts later.
 */
export function applyCooldown(
  rule: Rule,
  state: RuleState,
  serialno: bigint,
  eventMs: number,
): { decision: Extract<Decision, { kind: "alert" | "suppressed" }>; state: RuleState } {
  const last = state.lastAlertEventMs;
  if (last !== undefined && Math.abs(eventMs - last) < rule.cooldownSeconds * 1000) {
    const suppressed = state.suppressed + 1;
    return {
      decision: { kind: "suppressed", rule, suppressedSoFar: suppressed },
      state: { ...state, suppressed },
    };
  }
  return {
    decision: { kind: "alert", rule, suppressedBefore: state.suppressed },
    state: {
      lastAlertSerialno: serialno,
      lastAlertEventMs: eventMs,
      suppressed: 0,
      seenSerialno: state.seenSerialno > serialno ? state.seenSerialno : serialno,
    },
  };
}
