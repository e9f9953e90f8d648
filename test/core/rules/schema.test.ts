import { parseRules, type Rule, ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";

const minimal = { id: "speed", events: [13], severity: "warning" };

/** The problems of a file with the given rules, as `path: message` lines. */
function problemsOf(...rules: unknown[]): string[] {
  const result = parseRules({ rules });
  if (result.ok) throw new Error("expected the rules to be refused");
  return result.problems.map((problem) => `${problem.path}: ${problem.message}`);
}

function parseOne(rule: unknown): Rule {
  const result = parseRules({ rules: [rule] });
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
  const [parsed] = result.rules;
  if (parsed === undefined) throw new Error("no rule");
  return parsed;
}

describe("rule normalization", () => {
  it("fills in the defaults and renames events to eventCodes", () => {
    expect(parseOne(minimal)).toEqual({
      id: "speed",
      enabled: true,
      eventCodes: [13],
      severity: "warning",
      cooldownSeconds: 0,
    });
  });

  it("accepts names case-insensitively, keeps unknown numbers, and deduplicates in first-seen order", () => {
    const rule = parseOne({ ...minimal, events: ["gsensor", 13, "OVERSPEED", 77, 16, "Trigger In", 77] });
    expect(rule.eventCodes).toEqual([16, 13, 77, 51]);
  });

  it("keeps every optional field as given, and fills in the device filter's missing list", () => {
    const rule = parseOne({
      ...minimal,
      description: "too fast",
      enabled: false,
      events: ["Offline"],
      devices: { prefixes: ["TRK-"] },
      severity: "critical",
      cooldownSeconds: 604_800,
      staleAfterSeconds: 60,
      offlineForMinutes: 720,
      evidence: { channels: [32, 1], secondsBefore: 0, secondsAfter: 3600 },
    });
    expect(rule).toEqual({
      id: "speed",
      description: "too fast",
      enabled: false,
      eventCodes: [3],
      devices: { ids: [], prefixes: ["TRK-"] },
      severity: "critical",
      cooldownSeconds: 604_800,
      staleAfterSeconds: 60,
      offlineForMinutes: 720,
      evidence: { channels: [32, 1], secondsBefore: 0, secondsAfter: 3600 },
    });
  });

  it("accepts ids at the edges of the pattern", () => {
    for (const id of ["a", "0", `A${"b".repeat(63)}`, "disk_error-2"])
      expect(parseOne({ ...minimal, id }).id).toBe(id);
  });

  it("is the same normalization in ruleSchema itself", () => {
    expect(ruleSchema.parse({ ...minimal, events: ["OverSpeed", 13] }).eventCodes).toEqual([13]);
  });
});

describe("rule validation", () => {
  it("reports an unknown event name at its path, with a suggestion when one is close", () => {
    expect(
      problemsOf(minimal, minimal, { ...minimal, id: "c", events: [13, "Overspeeed", "Teleported"] }),
    ).toEqual([
      'rules.2.events.1: unknown event name "Overspeeed" (did you mean "OverSpeed"?)',
      'rules.2.events.2: unknown event name "Teleported"',
      'rules.1.id: duplicate rule id "speed" (first used by rules.0)',
    ]);
  });

  it("refuses events that are neither whole non-negative numbers nor strings, and an empty list", () => {
    const kind = 'must be an event code (a whole number) or an event name such as "OverSpeed"';
    expect(problemsOf({ ...minimal, events: [1.5, true, null, -1] })).toEqual([
      `rules.0.events.0: ${kind}`,
      `rules.0.events.1: ${kind}`,
      `rules.0.events.2: ${kind}`,
      "rules.0.events.3: Too small: expected number to be >=0",
    ]);
    expect(problemsOf({ ...minimal, events: [] })).toEqual(["rules.0.events: must list at least one event"]);
  });

  it("refuses unknown keys in the file, a rule, the device filter and the evidence", () => {
    const result = parseRules({
      rules: [
        {
          ...minimal,
          severty: "info",
          devices: { ids: ["D1"], prefix: "T" },
          evidence: { channels: [1], secondsBefore: 1, secondsAfter: 1, hd: true },
        },
      ],
      version: 2,
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        { path: "rules.0.devices", message: 'Unrecognized key: "prefix"' },
        { path: "rules.0.evidence", message: 'Unrecognized key: "hd"' },
        { path: "rules.0", message: 'Unrecognized key: "severty"' },
        { path: "(root)", message: 'Unrecognized key: "version"' },
      ],
    });
  });

  it("refuses bad ids", () => {
    const message = "must be 1 to 64 letters, digits, '_' or '-', starting with a letter or digit";
    for (const id of ["", "-x", "_x", "a b", "é", `a${"b".repeat(64)}`]) {
      expect(problemsOf({ ...minimal, id })).toEqual([`rules.0.id: ${message}`]);
    }
    expect(problemsOf({ ...minimal, id: 7 })).toEqual([
      "rules.0.id: Invalid input: expected string, received number",
    ]);
  });

  it("reports every duplicate id, naming the first use, even when other rules are invalid", () => {
    expect(problemsOf(minimal, { ...minimal, severity: "loud" }, null, minimal)).toEqual([
      'rules.1.severity: Invalid option: expected one of "info"|"warning"|"critical"',
      "rules.2: Invalid input: expected object, received null",
      'rules.1.id: duplicate rule id "speed" (first used by rules.0)',
      'rules.3.id: duplicate rule id "speed" (first used by rules.0)',
    ]);
  });

  it("treats ids that differ in case as different", () => {
    expect(parseRules({ rules: [minimal, { ...minimal, id: "Speed" }] }).ok).toBe(true);
  });

  it("requires a severity from the three", () => {
    const { severity: _, ...withoutSeverity } = minimal;
    expect(problemsOf(withoutSeverity)).toEqual([
      'rules.0.severity: Invalid option: expected one of "info"|"warning"|"critical"',
    ]);
  });

  it("bounds the cooldown to 0..7 days in whole seconds", () => {
    expect(problemsOf({ ...minimal, cooldownSeconds: 604_801 })).toEqual([
      "rules.0.cooldownSeconds: must be at most 604800 (7 days)",
    ]);
    expect(problemsOf({ ...minimal, cooldownSeconds: -1 })).toEqual([
      "rules.0.cooldownSeconds: Too small: expected number to be >=0",
    ]);
    expect(problemsOf({ ...minimal, cooldownSeconds: 1.5 })).toEqual([
      "rules.0.cooldownSeconds: Invalid input: expected int, received number",
    ]);
  });

  it("requires staleAfterSeconds of at least 60", () => {
    expect(problemsOf({ ...minimal, staleAfterSeconds: 59 })).toEqual([
      "rules.0.staleAfterSeconds: must be at least 60",
    ]);
  });

  it("allows offlineForMinutes 1..720 only with Offline among the events", () => {
    const offline = { ...minimal, events: ["Offline"] };
    expect(parseOne({ ...offline, offlineForMinutes: 1 }).offlineForMinutes).toBe(1);
    expect(parseOne({ ...offline, events: [13, 3], offlineForMinutes: 10 }).offlineForMinutes).toBe(10);
    expect(problemsOf({ ...offline, offlineForMinutes: 0 })).toEqual([
      "rules.0.offlineForMinutes: Too small: expected number to be >=1",
    ]);
    expect(problemsOf({ ...offline, offlineForMinutes: 721 })).toEqual([
      "rules.0.offlineForMinutes: Too big: expected number to be <=720",
    ]);
    expect(problemsOf({ ...minimal, offlineForMinutes: 10 })).toEqual([
      'rules.0.offlineForMinutes: is only allowed when "events" includes Offline (3)',
    ]);
  });

  it("reports the Offline requirement together with problems in other fields", () => {
    expect(problemsOf({ ...minimal, severity: "loud", cooldownSeconds: -5, offlineForMinutes: 10 })).toEqual([
      'rules.0.severity: Invalid option: expected one of "info"|"warning"|"critical"',
      "rules.0.cooldownSeconds: Too small: expected number to be >=0",
      'rules.0.offlineForMinutes: is only allowed when "events" includes Offline (3)',
    ]);
  });

  it("does not guess about the Offline requirement while the events themselves are invalid", () => {
    expect(problemsOf({ ...minimal, events: ["Ofline"], offlineForMinutes: 10 })).toEqual([
      'rules.0.events.0: unknown event name "Ofline" (did you mean "Online" or "Offline"?)',
    ]);
  });

  it("requires a device filter to name at least one non-empty id or prefix", () => {
    const emptyFilter =
      'rules.0.devices: must list at least one id or prefix (leave "devices" out to match every device)';
    expect(problemsOf({ ...minimal, devices: {} })).toEqual([emptyFilter]);
    expect(problemsOf({ ...minimal, devices: { ids: [], prefixes: [] } })).toEqual([emptyFilter]);
    expect(problemsOf({ ...minimal, devices: { ids: [""], prefixes: ["", "a\nb"] } })).toEqual([
      "rules.0.devices.ids.0: must not be empty",
      "rules.0.devices.prefixes.0: must not be empty",
      "rules.0.devices.prefixes.1: must not contain control characters",
    ]);
  });

  it("validates evidence channels and seconds", () => {
    const evidence = { channels: [1], secondsBefore: 30, secondsAfter: 30 };
    expect(
      problemsOf(
        { ...minimal, evidence: { ...evidence, channels: [] } },
        { ...minimal, id: "b", evidence: { ...evidence, channels: [0, 33, 2.5] } },
        { ...minimal, id: "c", evidence: { ...evidence, channels: [2, 1, 2] } },
        { ...minimal, id: "d", evidence: { ...evidence, secondsBefore: -1, secondsAfter: 3601 } },
        { ...minimal, id: "e", evidence: { ...evidence, secondsBefore: 0, secondsAfter: 0 } },
        { ...minimal, id: "f", evidence: { channels: [1] } },
      ),
    ).toEqual([
      "rules.0.evidence.channels: must list at least one channel",
      "rules.1.evidence.channels.0: Too small: expected number to be >=1",
      "rules.1.evidence.channels.1: Too big: expected number to be <=32",
      "rules.1.evidence.channels.2: Invalid input: expected int, received number",
      "rules.2.evidence.channels: must not repeat a channel",
      "rules.3.evidence.secondsBefore: Too small: expected number to be >=0",
      "rules.3.evidence.secondsAfter: must be at most 3600 (1 hour)",
      "rules.4.evidence: secondsBefore and secondsAfter must not both be 0 (the clip would be empty)",
      "rules.5.evidence.secondsBefore: Invalid input: expected number, received undefined",
      "rules.5.evidence.secondsAfter: Invalid input: expected number, received undefined",
    ]);
  });

  it("type-checks every other field", () => {
    expect(problemsOf({ ...minimal, enabled: "yes", description: 5, devices: { ids: "D1" } })).toEqual([
      "rules.0.description: Invalid input: expected string, received number",
      "rules.0.enabled: Invalid input: expected boolean, received string",
      "rules.0.devices.ids: Invalid input: expected array, received string",
    ]);
  });
});

describe("rules file validation", () => {
  it("requires an object with a non-empty rules list", () => {
    expect(parseRules([minimal])).toEqual({
      ok: false,
      problems: [{ path: "(root)", message: "Invalid input: expected object, received array" }],
    });
    expect(parseRules({})).toEqual({
      ok: false,
      problems: [{ path: "rules", message: "Invalid input: expected array, received undefined" }],
    });
    expect(parseRules({ rules: [] })).toEqual({
      ok: false,
      problems: [{ path: "rules", message: "must contain at least one rule" }],
    });
  });

  it("returns the rules in file order", () => {
    const result = parseRules({
      rules: [
        { ...minimal, id: "b" },
        { ...minimal, id: "a" },
      ],
    });
    expect(result.ok && result.rules.map((rule) => rule.id)).toEqual(["b", "a"]);
  });
});
