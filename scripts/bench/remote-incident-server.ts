import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { IncidentServerMessage } from "./incident-server-process.js";

/**
 * The incident app served on 127.0.0.1 by a child process (incident-server-process.ts), built from
 * `env`; `cpuMs()` is the CPU time that process has used so far, user and system.
 */
export async function forkIncidentServer(env: Record<string, string>) {
  const child = fork(fileURLToPath(new URL("./incident-server-process.ts", import.meta.url)), {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const next = <K extends IncidentServerMessage["kind"]>(kind: K) =>
    new Promise<Extract<IncidentServerMessage, { kind: K }>>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`the incident server process exited (${code})`));
      const onMessage = (message: IncidentServerMessage) => {
        if (message.kind !== kind) return;
        child.off("message", onMessage).off("exit", onExit);
        resolve(message as Extract<IncidentServerMessage, { kind: K }>);
      };
      child.once("exit", onExit).on("message", onMessage);
    });
  const { baseUrl } = await next("ready");
  return {
    baseUrl,
    cpuMs: async () => {
      const reply = next("cpu");
      child.send("cpu");
      return (await reply).microseconds / 1000;
    },
    close: async () => {
      if (child.exitCode !== null) return;
      child.send("close");
      await exited;
    },
  };
}
