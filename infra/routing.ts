import { type GroupsFile, loadGroupsFile, validateRouting } from "../packages/core/src/routing/index.js";
import { DEFAULT_RULES, loadRulesFile } from "../packages/core/src/rules/index.js";

/** An account as the stage file names it: its id, and its rules file (the default rules when absent). */
export interface StageAccount {
  id: string;
  rulesFile?: string | undefined;
}

/**
 * The stage's groups file, checked at synth as the poller checks it at start (the same core
 * loaders): with the rules of every account, counting the ops' `unrouted` subscriptions against
 * SNS's filter policies. A problem fails the synth (and `sst deploy`), listing every problem.
 * Undefined without a file: then every alert goes to the ops' emails.
 */
export async function stageRouting(
  groupsFile: string | undefined,
  accounts: readonly StageAccount[],
  opsEmails: readonly string[],
): Promise<GroupsFile | undefined> {
  if (groupsFile === undefined) return undefined;
  const groups = await loadGroupsFile(groupsFile);
  const withRules = await Promise.all(
    accounts.map(async (account) => ({
      id: account.id,
      rules: account.rulesFile ? await loadRulesFile(account.rulesFile) : DEFAULT_RULES,
    })),
  );
  validateRouting(groups, withRules, { source: groupsFile, otherFilterPolicies: opsEmails.length });
  return groups;
}
