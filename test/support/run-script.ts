import { spawn } from "node:child_process";
import { once } from "node:events";

/** Runs a TypeScript entry point of the repository as an operator would (see runCommand). */
export function runScript(script: string, args: readonly string[], env: Record<string, string> = {}) {
  return runCommand("npx", ["tsx", script, ...args], env);
}

/**
 * Runs a command (in `cwd`, else here) and collects its output: stdout and stderr interleaved as a
 * terminal shows them, and stdout alone.
 */
export async function runCommand(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
  cwd?: string,
) {
  const child = spawn(command, args, {
    ...(cwd && { cwd }),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let stdout = "";
  // Decoded as text by the streams themselves: a character split across chunks stays whole.
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  // "close", not "exit": by then both streams have delivered everything.
  const [code] = (await once(child, "close")) as [number];
  return { code, output, stdout };
}
