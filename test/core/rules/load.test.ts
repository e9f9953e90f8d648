import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InvalidRulesError, loadRulesFile } from "@fleet-alerts/core/rules";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rules-load-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileWith(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

async function failureOf(path: string): Promise<InvalidRulesError> {
  const error = await loadRulesFile(path).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof InvalidRulesError))
    throw new Error(`expected an InvalidRulesError, got ${String(error)}`);
  return error;
}

describe("loadRulesFile", () => {
  it("returns the normalized rules of a valid file, byte order mark or not", async () => {
    const text = JSON.stringify({ rules: [{ id: "speed", events: ["OverSpeed"], severity: "info" }] });
    for (const [name, content] of [
      ["plain.json", text],
      ["bom.json", `\uFEFF${text}`],
    ] as const) {
      const rules = await loadRulesFile(await fileWith(name, content));
      expect(rules).toEqual([
        { id: "speed", enabled: true, eventCodes: [13], severity: "info", cooldownSeconds: 0 },
      ]);
    }
  });

  it("throws an InvalidRulesError that lists every schema problem and names the file", async () => {
    const path = await fileWith(
      "bad.json",
      JSON.stringify({
        rules: [
          { id: "a", events: ["Overspeeed"], severity: "warning" },
          { id: "a", events: [13], severity: "loud", cooldownSeconds: -1 },
        ],
      }),
    );
    const error = await failureOf(path);
    expect(error.source).toBe(path);
    expect(error.problems).toEqual([
      { path: "rules.0.events.0", message: 'unknown event name "Overspeeed" (did you mean "OverSpeed"?)' },
      { path: "rules.1.severity", message: 'Invalid option: expected one of "info"|"warning"|"critical"' },
      { path: "rules.1.cooldownSeconds", message: "Too small: expected number to be >=0" },
      { path: "rules.1.id", message: 'duplicate rule id "a" (first used by rules.0)' },
    ]);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("InvalidRulesError");
    expect(error.message).toBe(
      `invalid rules file ${path} (4 problems):\n` +
        '  rules.0.events.0: unknown event name "Overspeeed" (did you mean "OverSpeed"?)\n' +
        '  rules.1.severity: Invalid option: expected one of "info"|"warning"|"critical"\n' +
        "  rules.1.cooldownSeconds: Too small: expected number to be >=0\n" +
        '  rules.1.id: duplicate rule id "a" (first used by rules.0)',
    );
  });

  it("says where invalid JSON breaks, by line and column", async () => {
    const path = await fileWith("syntax.json", '{\n  "rules": [\n    { "id": "a", }\n  ]\n}\n');
    const error = await failureOf(path);
    expect(error.problems).toEqual([
      {
        path: "(json)",
        message: "not valid JSON at line 3, column 18: Expected double-quoted property name",
      },
    ]);
    expect(error.message).toContain("1 problem)");
  });

  it("counts lines and columns after a byte order mark as an editor does", async () => {
    const error = await failureOf(await fileWith("bom-syntax.json", '\uFEFF{"rules": 1,}'));
    expect(error.problems[0]?.message).toBe(
      "not valid JSON at line 1, column 13: Expected double-quoted property name",
    );
  });

  it("never quotes the file's content, even where the JSON engine would", async () => {
    const secretLooking = "hunter2-do-not-print";
    const unexpectedToken = await failureOf(await fileWith("token.json", `{"rules": [${secretLooking}]}`));
    expect(unexpectedToken.problems).toEqual([
      { path: "(json)", message: "not valid JSON: Unexpected token 'h'" },
    ]);
    expect(unexpectedToken.message).not.toContain(secretLooking);

    const unterminated = await failureOf(await fileWith("unterminated.json", `{"rules": ["${secretLooking}`));
    expect(unterminated.problems).toEqual([
      { path: "(json)", message: "not valid JSON at line 1, column 33: Unterminated string" },
    ]);
  });

  it("says so when the JSON ends too early, or the file is empty", async () => {
    for (const [name, text] of [
      ["empty.json", ""],
      ["cut.json", '{\n  "rules":'],
    ] as const) {
      const error = await failureOf(await fileWith(name, text));
      expect(error.problems).toEqual([{ path: "(json)", message: "not valid JSON: it ends too early" }]);
    }
  });

  it("reports a missing file or a directory as unreadable", async () => {
    const missing = join(dir, "missing.json");
    expect((await failureOf(missing)).problems).toEqual([
      { path: "(file)", message: "cannot be read: no such file" },
    ]);
    expect((await failureOf(dir)).problems).toEqual([
      { path: "(file)", message: "cannot be read: it is a directory" },
    ]);
  });
});
