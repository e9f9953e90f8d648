import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import * as z from "zod";
import { CliError } from "./parse.js";

/**
 * How the CLI reaches a running `npm start`: the local mode writes where its emulators, queues,
 * incident pages and evidence folder are, and its clock, to a file; `--local` reads it. Nothing in
 * it is secret: the emulators' addresses on 127.0.0.1, names, and no credential (the emulators
 * check no signature, so the CLI signs with a fixed dummy pair).
 */
export const DEFAULT_LOCAL_ENDPOINTS_FILE = ".local/endpoints.json";

export const localEndpointsSchema = z.object({
  version: z.literal(1),
  /** This run's own id: a run removes the file at its end only if no later run has replaced it. */
  run: z.string(),
  /** The local mode's process: a file left by one that was killed is told apart from a running one. */
  pid: z.number().int(),
  region: z.string(),
  endpoints: z.object({ dynamodb: z.url(), sns: z.url(), sqs: z.url(), s3: z.url() }),
  tableName: z.string(),
  evidenceQueueUrl: z.url(),
  /** What `fleet-alerts doctor --local` checks: the queues failed jobs end in, and the topics' subscriptions. */
  deadLetterQueues: z.array(z.object({ name: z.string(), url: z.url() })),
  topics: z.array(z.object({ name: z.string(), arn: z.string() })),
  evidenceBucket: z.string(),
  /** The incident pages' address: share links start with it. */
  incidentBaseUrl: z.url(),
  /** Absolute: the CLI may run in another folder. */
  evidenceDir: z.string(),
  accounts: z.array(z.string()),
  /** The simulated fleets' credentials (local-secrets.ts), absolute; none with a real device cloud. */
  secretsFile: z.string().optional(),
  /**
   * The handlers' clock, which runs `speed` times faster than real time from `simulatedMs` at real
   * time `realMs` (the simulator's; 1 with a real device cloud): "now" for the CLI as for them.
   */
  clock: z.object({ realMs: z.number(), simulatedMs: z.number(), speed: z.number().positive() }),
});
export type LocalEndpoints = z.output<typeof localEndpointsSchema>;

/** The local mode's view of "now", from the clock its file states. */
export function localNowMs(clock: LocalEndpoints["clock"], realNowMs = Date.now()): number {
  return clock.simulatedMs + (realNowMs - clock.realMs) * clock.speed;
}

/** Written by the local mode once everything runs; returns what removes it again at its end. */
export async function writeLocalEndpoints(
  file: string,
  endpoints: Omit<LocalEndpoints, "version" | "run" | "pid">,
): Promise<() => Promise<void>> {
  const run = randomBytes(8).toString("hex");
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ version: 1, run, pid: process.pid, ...endpoints }, null, 2)}\n`);
  return async () => {
    const current = await readFile(file, "utf8").catch(() => undefined);
    if (current !== undefined && (JSON.parse(current) as { run?: string }).run === run)
      await rm(file, { force: true });
  };
}

/** Read by `--local`: a missing or foreign file is said plainly, with what to do. */
export async function readLocalEndpoints(file: string): Promise<LocalEndpoints> {
  const text = await readFile(resolve(file), "utf8").catch(() => {
    throw new CliError(`no local mode running: ${file} not found (start one with npm start, in this folder)`);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not the local mode's endpoints file`);
  }
  const parsed = localEndpointsSchema.safeParse(json);
  if (!parsed.success) throw new CliError(`${file} is not the local mode's endpoints file`);
  if (!running(parsed.data.pid))
    throw new CliError(
      `no local mode running: the one that wrote ${file} has stopped (start one with npm start)`,
    );
  return parsed.data;
}

function running(pid: number): boolean {
  try {
    // Signal 0 sends nothing: it only asks whether the process exists.
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, run by another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
