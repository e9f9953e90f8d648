/**
 * The groups file of the local mode: `config/groups.local.json` (a depot per simulated fleet, a
 * night shift with quiet hours, a digest for ops) or `--groups FILE`, checked against core's schema
 * before anything starts. The handlers read the effective file from GROUPS_FILE.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type GroupsFile, groupsFileSchema } from "@fleet-alerts/core/routing";

export const DEFAULT_GROUPS_FILE = fileURLToPath(
  new URL("../../../config/groups.local.json", import.meta.url),
);

/** The name of the webhook target `--webhook` adds, and of the catch-all group that sends to it. */
export const LOCAL_WEBHOOK_TARGET = "local-webhook";

export class InvalidGroupsError extends Error {
  constructor(file: string, problems: readonly string[]) {
    super(`invalid groups file ${file}:\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
    this.name = "InvalidGroupsError";
  }
}

/** Reads and checks a groups file; an error lists every problem. */
export async function readGroupsFile(file: string): Promise<GroupsFile> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new InvalidGroupsError(file, [(error as Error).message]);
  }
  return checked(file, json);
}

function checked(file: string, json: unknown): GroupsFile {
  const parsed = groupsFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw new InvalidGroupsError(
    file,
    parsed.error.issues.map((issue) => `${issue.path.join(".") || "(file)"}: ${issue.message}`),
  );
}

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
    ...(LOCAL_WEBHOOK_TARGET in file.targets ? [`targets.${LOCAL_WEBHOOK_TARGET}: already in the file`] : []),
    ...(file.groups.some((group) => group.name === LOCAL_WEBHOOK_TARGET)
      ? [`groups: a group is already named ${LOCAL_WEBHOOK_TARGET}`]
      : []),
  ];
  if (taken.length > 0) throw new InvalidGroupsError("(with --webhook)", taken);
  return checked("(with --webhook)", {
    ...file,
    targets: { ...file.targets, [LOCAL_WEBHOOK_TARGET]: { kind: "webhook" } },
    groups: [...file.groups, { name: LOCAL_WEBHOOK_TARGET, targets: [LOCAL_WEBHOOK_TARGET] }],
  });
}
