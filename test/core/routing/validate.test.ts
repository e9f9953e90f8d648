import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type GroupsFile,
  groupsFileSchema,
  loadGroupsFile,
  RoutingValidationError,
  validateRouting,
} from "@fleet-alerts/core/routing";
import { parseRules, type Rule } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";

const parsed = parseRules({
  rules: [
    { id: "gsensor", events: ["GSensor"], severity: "critical" },
    { id: "speeding", events: ["OverSpeed"], severity: "warning" },
    { id: "old", events: ["Offline"], severity: "critical", enabled: false },
  ],
});
if (!parsed.ok) throw new Error("fixture rules");
const rules: Rule[] = parsed.rules;
const accounts = [
  { id: "north", rules },
  { id: "south", rules },
];
const file = (input: unknown): GroupsFile => groupsFileSchema.parse(input);

/** The problems validateRouting reports, as "path: message" lines. */
function problems(groups: GroupsFile, options?: Parameters<typeof validateRouting>[2]): string[] {
  try {
    validateRouting(groups, accounts, options);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(RoutingValidationError);
    return (error as RoutingValidationError).problems.map((problem) => `${problem.path}: ${problem.message}`);
  }
}

describe("routing validation", () => {
  it("accepts groups that hear of every critical rule", () => {
    expect(
      problems(file({ groups: [{ name: "all", email: ["a@example.com"], select: { rules: ["gsensor"] } }] })),
    ).toEqual([]);
  });

  it("names a critical rule of an account that no group selects", () => {
    const groups = file({
      groups: [{ name: "north", email: ["a@example.com"], select: { accounts: ["north"] } }],
    });
    expect(problems(groups)).toEqual(['groups: critical rule "gsensor" of account "south" reaches no group']);
  });

  it("lists every problem at once: nothing selected, unknown names, SMS without email", () => {
    const groups = file({
      groups: [
        { name: "all", email: ["a@example.com"] },
        { name: "typo", email: ["b@example.com"], select: { accounts: ["nort"], rules: ["gsensr"] } },
        { name: "quiet", email: ["c@example.com"], select: { rules: ["speeding"], minSeverity: "critical" } },
        { name: "texts", sms: ["+4915100000001"], targets: ["erp"] },
      ],
    });
    const listed = problems(groups);
    expect(listed).toEqual([
      'groups.1.select.accounts (typo): unknown account "nort"',
      'groups.1.select.rules (typo): unknown rule "gsensr" (no selected account has it)',
      'groups.2.select.minSeverity (quiet): selects nothing: no selected rule is "critical" or above',
      'groups.3.targets (texts): unknown target "erp" (not in the file\'s targets)',
      "groups.3.sms (texts): SMS numbers without an email: alerts past the SMS caps must still reach someone",
    ]);
    expect(() => validateRouting(groups, accounts, { source: "groups.json" })).toThrow(
      /^invalid routing in groups\.json \(5 problems\):\n {2}groups\.1\.select\.accounts \(typo\): unknown account "nort"/,
    );
  });

  it("refuses more distinct recipients than SNS has filter policies per topic", () => {
    const groups = file({
      groups: [
        // The same address twice, with another case: one recipient.
        {
          name: "a",
          email: ["Dup@example.com", ...Array.from({ length: 99 }, (_, i) => `a${i}@example.com`)],
        },
        {
          name: "b",
          email: ["dup@example.com", ...Array.from({ length: 99 }, (_, i) => `b${i}@example.com`)],
        },
      ],
    });
    expect(problems(groups)).toEqual([]);
    expect(problems(groups, { otherFilterPolicies: 2 })).toEqual([
      "groups: 199 distinct email addresses and SMS numbers (201 filter policies with the others on the alerts topic): SNS allows 200 per topic",
    ]);
  });

  it("loads a groups file with a byte order mark, and names the problems of a broken one without quoting it", async () => {
    const path = join(tmpdir(), `groups-${process.pid}.json`);
    await writeFile(path, `\uFEFF${JSON.stringify({ groups: [{ name: "all", email: ["a@example.com"] }] })}`);
    expect((await loadGroupsFile(path)).groups[0]?.name).toBe("all");
    await writeFile(path, '{ "groups": [ { "name": "Secret Name" ');
    await expect(loadGroupsFile(path)).rejects.toThrow(/not valid JSON/);
    await expect(loadGroupsFile(path)).rejects.not.toThrow(/Secret/);
    await writeFile(path, JSON.stringify({ groups: [{ name: "Bad Name" }] }));
    await expect(loadGroupsFile(path)).rejects.toThrow(/groups\.0\.name: must be lower-case/);
  });
});
