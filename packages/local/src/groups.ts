/**
 * The groups file of the local mode: `config/groups.local.json` (a depot per simulated fleet, a
 * night shift with quiet hours, a digest for ops) or `--groups FILE`, checked against core's schema
 * before anything starts. The handlers read the effective file from GROUPS_FILE.
 */
import { fileURLToPath } from "node:url";
import { toValidationIssues } from "@fleet-alerts/core/devicecloud";
import { type GroupsFile, groupsFileSchema, RoutingValidationError } from "@fleet-alerts/core/routing";

export const DEFAULT_GROUPS_FILE = fileURLToPath(
  new URL("../../../config/groups.local.json", import.meta.url),
);

/** The name of the webhook target `--webhook` adds, and of the catch-all group that sends to it. */
export const LOCAL_WEBHOOK_TARGET = "local-webhook";

/**
 * The default file is written for the default fleets: with fewer (`--accounts 1`, or a real device
 * cloud), its groups that select only accounts not running are left out, as validation would
 * refuse a group that selects nothing. A file given with --groups is taken as it is.
 */
export function forAccounts(file: GroupsFile, accounts: readonly string[]): GroupsFile {
  const groups = file.groups.filter(
    (group) => group.select.accounts?.some((account) => accounts.includes(account)) ?? true,
  );
  return { ...file, groups };
}

/**
 * `--webhook`: a webhook target and a group selecting every alert that sends to it (and to nobody
 * else), so that every alert reaches the URL whichever other groups it goes to.
 */
export function withWebhookTarget(file: GroupsFile): GroupsFile {
  const taken = [
    ...(LOCAL_WEBHOOK_TARGET in file.targets
      ? [{ path: `targets.${LOCAL_WEBHOOK_TARGET}`, message: "already in the file" }]
      : []),
    ...(file.groups.some((group) => group.name === LOCAL_WEBHOOK_TARGET)
      ? [{ path: "groups", message: `a group is already named ${LOCAL_WEBHOOK_TARGET}` }]
      : []),
  ];
  if (taken.length > 0) throw new RoutingValidationError("(with --webhook)", taken);
  const parsed = groupsFileSchema.safeParse({
    ...file,
    targets: { ...file.targets, [LOCAL_WEBHOOK_TARGET]: { kind: "webhook" } },
    groups: [...file.groups, { name: LOCAL_WEBHOOK_TARGET, targets: [LOCAL_WEBHOOK_TARGET] }],
  });
  if (!parsed.success)
    throw new RoutingValidationError("(with --webhook)", toValidationIssues(parsed.error.issues));
  return parsed.data;
}
