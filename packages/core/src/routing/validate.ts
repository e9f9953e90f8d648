import { readJsonFile } from "../config/json-file.js";
import { toValidationIssues, type ValidationIssue } from "../devicecloud/errors.js";
import { BUILT_IN_RULES } from "../rules/not-recording.js";
import type { Rule } from "../rules/schema.js";
import { type GroupsFile, groupsFileSchema } from "./groups-schema.js";
import { severityAtLeast } from "./match.js";
import { recipientId } from "./recipients.js";

/**
 * SNS allows 200 subscription filter policies per topic by default, and every email address and
 * SMS number is one subscription filtered on its recipient id (docs/design/routing-and-notices.md,
 * Routing).
 */
export const SNS_MAX_FILTER_POLICIES_PER_TOPIC = 200;

/** An account as routing sees it: its id and its rules. */
export interface RoutingAccount {
  id: string;
  rules: readonly Rule[];
}

/** A groups file that cannot be read or parsed, or that does not fit the accounts' rules. */
export class RoutingValidationError extends Error {
  constructor(
    /** The file's path, or what was checked. */
    readonly source: string,
    readonly problems: ValidationIssue[],
  ) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    const listed = problems.map((problem) => `\n  ${problem.path}: ${problem.message}`).join("");
    super(`invalid routing in ${source} (${count}):${listed}`);
    this.name = "RoutingValidationError";
  }
}

/** Reads and parses a groups file (not yet checked against rules: validateRouting does that). */
export async function loadGroupsFile(path: string): Promise<GroupsFile> {
  const json = await readJsonFile(path);
  if (!json.ok) throw new RoutingValidationError(path, [json.problem]);
  const parsed = groupsFileSchema.safeParse(json.value);
  if (!parsed.success) throw new RoutingValidationError(path, toValidationIssues(parsed.error.issues));
  return parsed.data;
}

export interface ValidateRoutingOptions {
  /** Named in the error (the groups file's path). */
  source?: string;
  /**
   * Other subscriptions with a filter policy on the alerts topic (the ops emails' `unrouted`
   * ones): they count against the same quota as the recipients'.
   */
  otherFilterPolicies?: number;
}

/**
 * Checks a parsed groups file against the accounts and their rules; throws RoutingValidationError
 * listing every problem: a group that can select nothing, a critical rule no group hears of, an
 * unknown target, SMS numbers without an email, more recipients than SNS has filter policies.
 */
export function validateRouting(
  groupsFile: GroupsFile,
  accounts: readonly RoutingAccount[],
  options: ValidateRoutingOptions = {},
): void {
  const problems: ValidationIssue[] = [];
  const accountIds = new Set(accounts.map((account) => account.id));
  // Disabled rules never alert: neither selecting them nor leaving them unselected matters. Every
  // account also has the built-in rules (the recorder audit's), which groups select by id.
  const enabled = (account: RoutingAccount) =>
    [...account.rules, ...BUILT_IN_RULES].filter((rule) => rule.enabled);

  groupsFile.groups.forEach((group, index) => {
    const at = (field: string) => `groups.${index}.${field} (${group.name})`;
    const { select } = group;
    for (const account of select.accounts ?? [])
      if (!accountIds.has(account))
        problems.push({ path: at("select.accounts"), message: `unknown account "${account}"` });
    const selectedAccounts = accounts.filter(
      (account) => select.accounts === undefined || select.accounts.includes(account.id),
    );
    const knownRules = new Set([
      ...BUILT_IN_RULES.map((rule) => rule.id),
      ...selectedAccounts.flatMap((account) => account.rules.map((rule) => rule.id)),
    ]);
    for (const rule of select.rules ?? [])
      if (!knownRules.has(rule))
        problems.push({
          path: at("select.rules"),
          message: `unknown rule "${rule}" (no selected account has it)`,
        });
    const reachable = selectedAccounts
      .flatMap(enabled)
      .filter((rule) => select.rules === undefined || select.rules.includes(rule.id));
    if (reachable.length > 0 && !reachable.some((rule) => severityAtLeast(rule.severity, select.minSeverity)))
      problems.push({
        path: at("select.minSeverity"),
        message: `selects nothing: no selected rule is "${select.minSeverity}" or above`,
      });
    else if (reachable.length === 0 && selectedAccounts.length > 0)
      problems.push({
        path: at("select"),
        message: "selects nothing: no enabled rule of the selected accounts",
      });
    for (const target of group.targets)
      if (!(target in groupsFile.targets))
        problems.push({
          path: at("targets"),
          message: `unknown target "${target}" (not in the file's targets)`,
        });
    if (group.sms.length > 0 && group.email.length === 0)
      problems.push({
        path: at("sms"),
        message: "SMS numbers without an email: alerts past the SMS caps must still reach someone",
      });
  });

  // Device and vehicle selectors are not compared here: whatever no group matches goes to the
  // `unrouted` recipient (ops), so a critical alert is never lost, only sent to the wrong people.
  for (const account of accounts)
    for (const rule of enabled(account).filter((candidate) => candidate.severity === "critical"))
      if (
        !groupsFile.groups.some(
          ({ select }) =>
            (select.accounts === undefined || select.accounts.includes(account.id)) &&
            (select.rules === undefined || select.rules.includes(rule.id)),
        )
      )
        problems.push({
          path: "groups",
          message: `critical rule "${rule.id}" of account "${account.id}" reaches no group`,
        });

  const recipients = new Set(
    groupsFile.groups.flatMap((group) => [
      ...group.email.map((address) => recipientId("email", address)),
      ...group.sms.map((number) => recipientId("sms", number)),
    ]),
  );
  const filterPolicies = recipients.size + (options.otherFilterPolicies ?? 0);
  if (filterPolicies > SNS_MAX_FILTER_POLICIES_PER_TOPIC)
    problems.push({
      path: "groups",
      message: `${recipients.size} distinct email addresses and SMS numbers (${filterPolicies} filter policies with the others on the alerts topic): SNS allows ${SNS_MAX_FILTER_POLICIES_PER_TOPIC} per topic`,
    });

  if (problems.length > 0) throw new RoutingValidationError(options.source ?? "the groups file", problems);
}
