import {
  DEFAULT_RULES,
  describeRule,
  InvalidRulesError,
  loadRulesFile,
  type Rule,
} from "@fleet-alerts/core/rules";
import { Command } from "commander";

/** `fleet-alerts rules ...`: working with alert rules files. */
export function rulesCommand(): Command {
  const rules = new Command("rules").description("work with alert rules files");
  rules
    .command("check")
    .description(
      "validate a rules file and print its effective rules, or list every problem (exit code 1); " +
        "without a file, print the default rules",
    )
    .argument("[file]", "rules file (JSON)")
    .action(checkRules);
  return rules;
}

async function checkRules(file: string | undefined): Promise<void> {
  if (file === undefined) {
    printRules(`Default rules (${count(DEFAULT_RULES.length, "rule")}):`, DEFAULT_RULES);
    return;
  }
  try {
    const rules = await loadRulesFile(file);
    printRules(`${file}: valid, ${count(rules.length, "rule")}:`, rules);
  } catch (error) {
    if (!(error instanceof InvalidRulesError)) throw error;
    console.error(`${file}: ${count(error.problems.length, "problem")}:`);
    for (const problem of error.problems) console.error(`${problem.path}: ${problem.message}`);
    // Not process.exit(): it could cut off output still being written to a pipe.
    process.exitCode = 1;
  }
}

function printRules(heading: string, rules: readonly Rule[]): void {
  console.log(heading);
  for (const rule of rules) console.log(describeRule(rule));
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
