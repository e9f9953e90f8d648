import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { cliProgram } from "../../packages/functions/src/cli/program.js";
import { invocations, usageProblems } from "../support/cli-usage.js";
import { documentationPages, markdownCode } from "../support/markdown.js";

/** Every problem of every `fleet-alerts` command line a page shows, with the page and line. */
function pageProblems(page: string, markdown: string): { shown: number; problems: string[] } {
  const program = cliProgram();
  let shown = 0;
  const problems: string[] = [];
  for (const code of markdownCode(markdown)) {
    for (const args of invocations(code.text)) {
      shown++;
      for (const problem of usageProblems(program, args)) problems.push(`${page}:${code.line}: ${problem}`);
    }
  }
  return { shown, problems };
}

describe("the fleet-alerts commands the documentation shows", () => {
  it("exist: every command, subcommand and flag in the README's and docs/' code is one the CLI declares", async () => {
    let shown = 0;
    const problems: string[] = [];
    for (const page of await documentationPages()) {
      const found = pageProblems(page, await readFile(page, "utf8"));
      shown += found.shown;
      problems.push(...found.problems);
    }
    expect(shown).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it("are checked: a made-up command, subcommand or flag is named; real ones, --help and placeholders pass", () => {
    const markdown = [
      "```sh",
      "npm run fleet-alerts -- cursor show --account north --table T   # a comment --not-a-flag",
      "npm run fleet-alerts -- evidence request --local --account north --device D \\",
      '    --at 2026-11-27T20:34:44Z --reason "Claim 42" --wait',
      "fleet-alerts evidence request --account A --device D --at TIME --reason TEXT [--before 30] [--wait [seconds]]",
      "npm run fleet-alerts -- teleport --now",
      "npm run fleet-alerts -- cursor show --frobnicate | less",
      "```",
      "",
      "Use `fleet-alerts target show|enable <id>`, `fleet-alerts target show|disable <id>`,",
      "`npm run fleet-alerts -- <command>`, `npm run fleet-alerts -- --help`, `fleet-alerts-<stage>`,",
      "`fleet-alerts rules replay --help`, `fleet-alerts share create A --expires=30d --colour=red`.",
    ].join("\n");
    expect(pageProblems("docs/synthetic.md", markdown)).toEqual({
      shown: 11,
      problems: [
        "docs/synthetic.md:1: fleet-alerts: no command teleport",
        "docs/synthetic.md:1: fleet-alerts cursor show: no flag --frobnicate",
        "docs/synthetic.md:10: fleet-alerts target: no command disable",
        "docs/synthetic.md:12: fleet-alerts share create: no flag --colour",
      ],
    });
  });
});
