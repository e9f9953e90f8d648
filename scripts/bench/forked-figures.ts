/**
 * A measurement in a process of its own: `script` (a module of this folder) is forked with its
 * options as JSON in argv and sends its figures back over the IPC channel of `fork()`.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

export function forkedFigures<T>(script: string, options: unknown): Promise<T> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [JSON.stringify(options)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (figures: T) => resolve(figures));
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}) without figures`)));
  });
}
