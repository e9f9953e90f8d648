import { readJsonFile } from "../config/json-file.js";
import type { ValidationIssue } from "../devicecloud/errors.js";
import { parseRules } from "./parse.js";
import type { Rule } from "./schema.js";

/** A rules file that cannot be read, is not JSON, or does not match the schema. */
export class InvalidRulesError extends Error {
  constructor(
    /** The file's path. */
    readonly source: string,
    readonly problems: ValidationIssue[],
  ) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    const listed = problems.map((problem) => `\n  ${problem.path}: ${problem.message}`).join("");
    super(`invalid rules file ${source} (${count}):${listed}`);
    this.name = "InvalidRulesError";
  }
}

/** Reads, parses and validates a rules file. Throws InvalidRulesError listing every problem. */
export async function loadRulesFile(path: string): Promise<Rule[]> {
  const json = await readJsonFile(path);
  if (!json.ok) throw new InvalidRulesError(path, [json.problem]);
  const result = parseRules(json.value);
  if (!result.ok) throw new InvalidRulesError(path, result.problems);
  return result.rules;
}
