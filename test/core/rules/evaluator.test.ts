import { describe, expect, it } from "vitest";
import { applyCooldown, evaluateEvent, type RuleState } from "../../../packages/core/src/rules/evaluator.js";
import { type RuleInput, ruleSchema } from "../../../packages/core/src/rules/schema.js";

const rule = (input: Partial<RuleInput> & { id: string }) =>
  ruleSchema.parse({ events: [13], severity: "warning", ...input });

const NOW = Date.parse("2026-01-05T12:00:00Z");
const event = (
  serial: number,
  offsetSeconds: number,
  overrides: { appdevid?: number; deviceid?: string } = {},
) => ({
  serialno: BigInt(serial),
  deviceid: overrides.deviceid ?? "D1",
  appdevid: overrides.appdevid ?? 13,
  eventtime: new Date(NOW + offsetSeconds * 1000).toISOString(),
});

/** Runs events through the evaluator as the poller does, keeping the states between them. */
function run(rules: ReturnType<typeof rule>[], events: ReturnType<typeof event>[], nowMs = NOW) {
  const states = new Map<string, RuleState>();
  return events.map((input) => {
    const evaluation = evaluateEvent(
      input,
      rules,
      (ruleId) => states.get(`${ruleId}/${input.deviceid}`),
      nowMs,
    );
    for (const [ruleId, state] of evaluation.changed) states.set(`${ruleId}/${input.deviceid}`, state);
    return evaluation.decisions.map((decision) => `${decision.kind}:${decision.rule.id}`);
  });
}

describe("rule evaluation", () => {
  it("alerts on a matching event and ignores others", () => {
    const rules = [rule({ id: "speed" })];
    expect(run(rules, [event(1, 0), event(2, 1, { appdevid: 16 })])).toEqual([["alert:speed"], []]);
  });

  it("honours the device filter by id and prefix", () => {
    const rules = [rule({ id: "trucks", devices: { ids: ["VAN-1"], prefixes: ["TRK-"] } })];
    const decisions = run(rules, [
      event(1, 0, { deviceid: "TRK-7" }),
      event(2, 0, { deviceid: "VAN-1" }),
      event(3, 0, { deviceid: "CAR-1" }),
    ]);
    expect(decisions).toEqual([["alert:trucks"], ["alert:trucks"], []]);
  });

  it("suppresses repeats inside the cooldown per device, counts them, and says so on the next alert", () => {
    const rules = [rule({ id: "speed", cooldownSeconds: 300 })];
    const states = new Map<string, RuleState>();
    const decide = (input: ReturnType<typeof event>) => {
      const evaluation = evaluateEvent(input, rules, (id) => states.get(`${id}/${input.deviceid}`), NOW);
      for (const [id, state] of evaluation.changed) states.set(`${id}/${input.deviceid}`, state);
      return evaluation.decisions[0];
    };
    expect(decide(event(1, 0))).toMatchObject({ kind: "alert", suppressedBefore: 0 });
    expect(decide(event(2, 60))).toMatchObject({ kind: "suppressed", suppressedSoFar: 1 });
    expect(decide(event(3, 120, { deviceid: "D2" }))).toMatchObject({ kind: "alert", suppressedBefore: 0 });
    expect(decide(event(4, 299))).toMatchObject({ kind: "suppressed", suppressedSoFar: 2 });
    expect(decide(event(5, 300))).toMatchObject({ kind: "alert", suppressedBefore: 2 });
    expect(decide(event(6, 301))).toMatchObject({ kind: "suppressed", suppressedSoFar: 1 });
  });

  it("measures the cooldown either way, since late uploads arrive out of event-time order", () => {
    const rules = [rule({ id: "speed", cooldownSeconds: 300 })];
    expect(run(rules, [event(1, 0), event(2, -100), event(3, -400)])).toEqual([
      ["alert:speed"],
      ["suppressed:speed"],
      ["alert:speed"],
    ]);
  });

  it("records stale events without alerting, and does not start a cooldown with them", () => {
    const rules = [rule({ id: "speed", staleAfterSeconds: 3600, cooldownSeconds: 600 })];
    expect(run(rules, [event(1, -7200), event(2, -3599), event(3, -3500)])).toEqual([
      ["stale:speed"],
      ["alert:speed"],
      ["suppressed:speed"],
    ]);
  });

  it("changes nothing for an event at or below the serial it has seen (a replay)", () => {
    const rules = [rule({ id: "speed", cooldownSeconds: 300 })];
    const seen: RuleState = {
      suppressed: 3,
      seenSerialno: 10n,
      lastAlertSerialno: 7n,
      lastAlertEventMs: NOW,
    };
    for (const serial of [7, 9, 10]) {
      const evaluation = evaluateEvent(event(serial, 30), rules, () => seen, NOW);
      expect(evaluation).toEqual({ decisions: [], changed: new Map() });
    }
    expect(evaluateEvent(event(11, 30), rules, () => seen, NOW).decisions[0]).toMatchObject({
      kind: "suppressed",
      suppressedSoFar: 4,
    });
  });

  it("is deterministic: the same inputs give the same decisions and states", () => {
    const rules = [rule({ id: "speed", cooldownSeconds: 60 }), rule({ id: "all", events: [13, 16] })];
    const events = [event(1, 0), event(2, 10), event(3, 100, { appdevid: 16 })];
    expect(run(rules, events)).toEqual(run(rules, events));
  });

  it("asks to confirm an Offline event later, and an Online event cancels it", () => {
    const rules = [rule({ id: "offline", events: ["Offline"], offlineForMinutes: 10 })];
    const offline = evaluateEvent(event(1, -60, { appdevid: 3 }), rules, () => undefined, NOW);
    expect(offline.decisions).toEqual([
      { kind: "confirm-offline", rule: rules[0], dueAtMs: NOW - 60_000 + 10 * 60_000 },
    ]);
    expect(offline.changed.get("offline")).toEqual({ suppressed: 0, seenSerialno: 1n });
    const online = evaluateEvent(event(2, 0, { appdevid: 0 }), rules, () => undefined, NOW);
    expect(online.decisions).toEqual([{ kind: "cancel-offline", rule: rules[0] }]);
    const otherDevice = rule({
      id: "vans",
      events: [3],
      offlineForMinutes: 5,
      devices: { prefixes: ["VAN-"] },
    });
    expect(
      evaluateEvent(event(3, 0, { appdevid: 0, deviceid: "TRK-1" }), [otherDevice], () => undefined, NOW)
        .decisions,
    ).toEqual([]);
  });

  it("alerts on Offline at once when the rule asks for no confirmation", () => {
    const rules = [rule({ id: "offline-now", events: [3] })];
    expect(run(rules, [event(1, 0, { appdevid: 3 })])).toEqual([["alert:offline-now"]]);
  });

  it("skips disabled rules", () => {
    expect(run([rule({ id: "off", enabled: false })], [event(1, 0)])).toEqual([[]]);
  });
});

describe("cooldown alone", () => {
  it("resets the count on an alert and keeps the highest serial seen", () => {
    const speed = rule({ id: "speed", cooldownSeconds: 60 });
    const outcome = applyCooldown(
      speed,
      { suppressed: 2, seenSerialno: 9n, lastAlertEventMs: NOW - 120_000 },
      5n,
      NOW,
    );
    expect(outcome).toEqual({
      decision: { kind: "alert", rule: speed, suppressedBefore: 2 },
      state: { lastAlertSerialno: 5n, lastAlertEventMs: NOW, suppressed: 0, seenSerialno: 9n },
    });
  });
});
