import { eventCodeName, isKnownEventCode } from "../devicecloud/codes.js";
import { formatDuration } from "./duration.js";
import type { Rule } from "./schema.js";

/**
 * One line that says what a rule does, for `rules check` and logs, e.g.
 * `overspeed [warning] OverSpeed(13) all devices, cooldown 5 min, stale after 6 h, evidence ch1 -30 s/+30 s`.
 * Alternatives within a field are separated by `|` so that commas only separate fields.
 */
export function describeRule(rule: Rule): string {
  const head = [rule.id, `[${rule.severity}]`, ...(rule.enabled ? [] : ["(disabled)"])].join(" ");
  const fields = [
    rule.offlineForMinutes === undefined ? undefined : `after ${rule.offlineForMinutes} min offline`,
    rule.cooldownSeconds === 0 ? "no cooldown" : `cooldown ${formatDuration(rule.cooldownSeconds)}`,
    rule.staleAfterSeconds === undefined
      ? undefined
      : `stale after ${formatDuration(rule.staleAfterSeconds)}`,
    rule.evidence === undefined ? undefined : describeEvidence(rule.evidence),
    rule.escalate === undefined ? undefined : describeEscalation(rule.escalate),
  ].filter((field) => field !== undefined);
  return `${head} ${describeEvents(rule.eventCodes)} ${describeDevices(rule.devices)}, ${fields.join(", ")}`;
}

function describeEvents(codes: readonly number[]): string {
  return codes
    .map((code) => (isKnownEventCode(code) ? `${eventCodeName(code)}(${code})` : `code ${code}`))
    .join("|");
}

function describeDevices(devices: Rule["devices"]): string {
  if (devices === undefined) return "all devices";
  const selectors = [...devices.ids, ...devices.prefixes.map((prefix) => `${prefix}*`)];
  return `${selectors.length === 1 ? "device" : "devices"} ${selectors.join("|")}`;
}

function describeEvidence(evidence: NonNullable<Rule["evidence"]>): string {
  const channels = evidence.channels.map((channel) => `ch${channel}`).join("+");
  return `evidence ${channels} -${formatDuration(evidence.secondsBefore)}/+${formatDuration(evidence.secondsAfter)}`;
}

function describeEscalation({ afterSeconds, levels }: NonNullable<Rule["escalate"]>): string {
  return `escalate after ${formatDuration(afterSeconds)} per level, ${levels} ${levels === 1 ? "level" : "levels"}`;
}
