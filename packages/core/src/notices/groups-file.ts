import { readFile } from "node:fs/promises";
import { type GroupsFile, groupsFileSchema } from "../routing/groups-schema.js";

/** The groups file (GROUPS_FILE), checked by its schema; an error names the file and each field. */
export async function loadGroupsFile(path: string): Promise<GroupsFile> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(`groups file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = groupsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
    throw new Error(`invalid groups file ${path}: ${problems.join("; ")}`);
  }
  return parsed.data;
}
