import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { GroupsFile } from "@fleet-alerts/core/routing";

/** The groups file of tests about something else: one group hears of every alert, by one email. */
export const EVERYONE: Pick<GroupsFile, "groups"> = {
  groups: [
    {
      name: "everyone",
      email: ["fleet@example.com"],
      sms: [],
      targets: [],
      select: { minSeverity: "info" },
    },
  ],
};

/** Writes a groups file into `folder`; its path, for GROUPS_FILE. */
export async function writeGroupsFile(folder: string, file: object = EVERYONE): Promise<string> {
  const path = join(folder, "groups.json");
  await writeFile(path, JSON.stringify(file));
  return path;
}
