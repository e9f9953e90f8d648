import {
  DEFAULT_RULES,
  evaluateEvent,
  type Rule,
  type RuleState,
  ruleSchema,
} from "@fleet-alerts/core/rules";

export interface RuleThroughput {
  rules: number;
  events: number;
  eventsPerSecond: number;
}

const CODES = [0, 2, 3, 8, 12, 13, 14, 16, 51, 77];

/** Events through the pure evaluator, with per-rule-and-device state kept as the poller keeps it. */
export function measureRuleEvaluation(rules: readonly Rule[], eventCount: number): RuleThroughput {
  const start = Date.parse("2026-01-05T00:00:00Z");
  const events = Array.from({ length: eventCount }, (_, index) => ({
    serialno: BigInt(1_000_000 + index),
    deviceid: `D${index % 1000}`,
    appdevid: CODES[index % CODES.length] as number,
    eventtime: new Date(start + index * 1000).toISOString(),
  }));
  const states = new Map<string, RuleState>();
  const nowMs = start + eventCount * 1000;
  const began = process.hrtime.bigint();
  for (const event of events) {
    const evaluation = evaluateEvent(
      event,
      rules,
      (ruleId) => states.get(`${ruleId}\u0000${event.deviceid}`),
      nowMs,
    );
    for (const [ruleId, state] of evaluation.changed) states.set(`${ruleId}\u0000${event.deviceid}`, state);
  }
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  return { rules: rules.length, events: eventCount, eventsPerSecond: Math.round(eventCount / seconds) };
}

/** A hundred rules: per-device prefixes and codes, as a large fleet's configuration might have. */
export function hundredRules(): Rule[] {
  return Array.from({ length: 100 }, (_, index) =>
    ruleSchema.parse({
      id: `rule-${index}`,
      events: [CODES[index % CODES.length]],
      devices: { prefixes: [`D${index % 10}`] },
      severity: "warning",
      cooldownSeconds: 60,
    }),
  );
}

export const defaultRules = (): readonly Rule[] => DEFAULT_RULES;
