import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { hashPassword } from "@fleet-alerts/core/devicecloud";
import type { Simulator } from "@fleet-alerts/simulator";
import { expect } from "vitest";

const CLI = fileURLToPath(new URL("../../../packages/functions/src/cli.ts", import.meta.url));

/** What the simulator's demo account sends as its password; no output of the CLI may contain it. */
export const DEMO_PASSWORD_HASH = hashPassword("demo");

const GUARD_MS = 20_000;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Added to the test process's environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** Sees the output so far at each chunk, to act while the command runs (inject events, interrupt). */
  onOutput?: (soFar: { stdout: string; stderr: string }, child: ChildProcess) => void;
}

/**
 * Runs the CLI as a child process, as an operator would, with stdin not a terminal. Every run
 * checks that neither output carries the demo password's hash.
 */
export async function fleetAlerts(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    options.onOutput?.({ stdout, stderr }, child);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    options.onOutput?.({ stdout, stderr }, child);
  });
  // A command that never ends (a tail whose trigger did not come) must not outlive the test.
  const guard = setTimeout(() => child.kill("SIGKILL"), GUARD_MS);
  const [code] = (await once(child, "close")) as [number | null];
  clearTimeout(guard);
  expect(stdout + stderr).not.toContain(DEMO_PASSWORD_HASH);
  return { code, stdout, stderr };
}

/** The connection settings of the simulator's demo account, as an operator's environment holds them. */
export function deviceCloudEnv(simulator: Simulator): Record<string, string> {
  return {
    DEVICE_CLOUD_BASE_URL: simulator.url,
    DEVICE_CLOUD_USERNAME: "demo",
    DEVICE_CLOUD_PASSWORD: "demo",
  };
}
