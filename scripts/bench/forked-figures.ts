/**
 * A measurement in a process of its own: `script` (a module of this folder) is forked with its
 * options as JSON in argv and sends its figures back over the IPC channel of `fork()`. `cwd`: the
 * checkout it measures, when not this one (backlog-baseline.ts); tsx is resolved from there.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

export function forkedFigures<T>(script: string, options: unknown, cwd?: string): Promise<T> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [JSON.stringify(options)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    ...(cwd !== undefined && { cwd }),
  });
  return new Promise((resolve, reject) => {
    child.once("message", (figures: T) => resolve(figures));
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}) without figures`)));
  });
}
