import type { RuleStateField } from "./ports.js";

/** The key of one rule's state for one device, in the maps of states a run holds. */
export function stateKey(deviceid: string, ruleId: string): string {
  return `${ruleId}\u0000${deviceid}`;
}

/** Every field of a rule state: a writer that owns them all owns the whole state. */
export const RULE_STATE_FIELDS: readonly RuleStateField[] = [
  "seenSerialno",
  "lastAlertSerialno",
  "lastAlertEventMs",
  "suppressed",
];

/** Whether a save of these fields may write the state whole (no other writer owns a field of it). */
export function ownsWholeState(fields: readonly RuleStateField[]): boolean {
  return RULE_STATE_FIELDS.every((field) => fields.includes(field));
}
