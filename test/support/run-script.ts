import { spawn } from "node:child_process";
import { once } from "node:events";

/** Runs a TypeScript entry point of the repository as an operator would, and collects its output. */
export async function runScript(script: string, args: readonly string[], env: Record<string, string> = {}) {
  const child = spawn("npx", ["tsx", script, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number];
  return { code, output };
}
