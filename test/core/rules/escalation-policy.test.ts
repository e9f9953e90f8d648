import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  describeRule,
  InvalidRulesError,
  loadRulesFile,
  parseDurationSeconds,
  parseRules,
} from "@fleet-alerts/core/rules";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const critical = { id: "crash", events: ["GSensor"], severity: "critical" };

function problemsOf(escalate: unknown): string[] {
  const result = parseRules({ rules: [{ ...critical, escalate }] });
  if (result.ok) throw new Error("expected the rule to be refused");
  return result.problems.map((problem) => `${problem.path}: ${problem.message}`);
}

describe("a rule's escalation policy", () => {
  it("reads durations as a person writes them", () => {
    expect(
      ["90s", "10m", "1h", "1h30m", "2m5s", "30s", "12h", "30d", "1d12h"].map(parseDurationSeconds),
    ).toEqual([90, 600, 3600, 5400, 125, 30, 43_200, 2_592_000, 129_600]);
    for (const text of ["", "10", "m", "10 m", "1.5h", "-10m", "10m1h", "1h1d", "10M", "1w"]) {
      expect(parseDurationSeconds(text), text).toBeUndefined();
    }
  });

  it("is normalized to whole seconds, and described for `rules check`", () => {
    const result = parseRules({ rules: [{ ...critical, escalate: { after: "10m", levels: 2 } }] });
    if (!result.ok) throw new Error("expected the rule to pass");
    const [rule] = result.rules;
    expect(rule?.escalate).toEqual({ afterSeconds: 600, levels: 2 });
    expect(rule && describeRule(rule)).toBe(
      "crash [critical] GSensor(16) all devices, no cooldown, escalate after 10 min per level, 2 levels",
    );
  });

  it("refuses bad values with the path and a message that says what is allowed", () => {
    expect(problemsOf({ after: "10 minutes", levels: 2 })).toEqual([
      'rules.0.escalate.after: must be a duration such as "90s", "10m", "1h" or "1h30m"',
    ]);
    expect(problemsOf({ after: "29s", levels: 1 })).toEqual([
      "rules.0.escalate.after: must be at least 30 s",
    ]);
    expect(problemsOf({ after: "12h1s", levels: 1 })).toEqual([
      "rules.0.escalate.after: must be at most 12 h",
    ]);
    expect(problemsOf({ after: "10m", levels: 0 })).toEqual(["rules.0.escalate.levels: must be at least 1"]);
    expect(problemsOf({ after: "10m", levels: 4 })).toEqual(["rules.0.escalate.levels: must be at most 3"]);
    expect(problemsOf({ after: "10m", levels: 1.5 })).toEqual([
      "rules.0.escalate.levels: must be a whole number",
    ]);
    expect(problemsOf({ after: 600, levels: 1, to: "ops" })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^rules\.0\.escalate\.after: /),
        expect.stringMatching(/^rules\.0\.escalate: .*"to"/),
      ]),
    );
  });
});

describe("the rules loader", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "rules-escalate-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a file with an invalid escalation, naming the path", async () => {
    const path = join(dir, "rules.json");
    await writeFile(path, JSON.stringify({ rules: [{ ...critical, escalate: { after: "5s", levels: 9 } }] }));
    const error = await loadRulesFile(path).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InvalidRulesError);
    expect((error as InvalidRulesError).problems).toEqual([
      { path: "rules.0.escalate.after", message: "must be at least 30 s" },
      { path: "rules.0.escalate.levels", message: "must be at most 3" },
    ]);
  });
});
