import { toValidationIssues, type ValidationIssue } from "../devicecloud/errors.js";
import { type Rule, rulesFileSchema } from "./schema.js";

export type ParseRulesResult = { ok: true; rules: Rule[] } | { ok: false; problems: ValidationIssue[] };

/** Validates a parsed rules file; on failure, every problem is returned with its path. */
export function parseRules(json: unknown): ParseRulesResult {
  const parsed = rulesFileSchema.safeParse(json);
  return parsed.success
    ? { ok: true, rules: parsed.data.rules }
    : { ok: false, problems: toValidationIssues(parsed.error.issues) };
}
