import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import * as z from "zod";

/**
 * The simulated fleets' credentials of a running `npm start`, for `doctor --local` to check as a
 * deployed stage's are checked in SSM. They are made up for the run, open only its simulators on
 * 127.0.0.1, and the file is readable by its user alone and removed at the run's end. A real device
 * cloud's password is never written: the shell's environment holds it (doctor-secrets.ts).
 */
export const localSecretsSchema = z.object({
  version: z.literal(1),
  run: z.string(),
  accounts: z.record(z.string(), z.object({ baseUrl: z.url(), username: z.string(), password: z.string() })),
});
export type LocalSecrets = z.output<typeof localSecretsSchema>["accounts"];

/** Written by the local mode; returns what removes it again, unless a later run has replaced it. */
export async function writeLocalSecrets(file: string, accounts: LocalSecrets): Promise<() => Promise<void>> {
  const run = randomBytes(8).toString("hex");
  await mkdir(dirname(file), { recursive: true });
  // Removed first: writeFile's mode applies only to a file it creates.
  await rm(file, { force: true });
  await writeFile(file, `${JSON.stringify({ version: 1, run, accounts }, null, 2)}\n`, { mode: 0o600 });
  return async () => {
    const current = await readFile(file, "utf8").catch(() => undefined);
    if (current !== undefined && (JSON.parse(current) as { run?: string }).run === run)
      await rm(file, { force: true });
  };
}

/** The accounts the file holds; none when it is missing or not the local mode's (nothing is echoed). */
export async function readLocalSecrets(file: string): Promise<LocalSecrets> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return {};
  try {
    const parsed = localSecretsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.accounts : {};
  } catch {
    return {};
  }
}
