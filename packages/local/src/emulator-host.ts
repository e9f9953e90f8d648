/**
 * Where the emulator servers run: in this process, or in a child process of their own.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { EmulatorProcessMessage } from "./emulator-process.js";
import { startEmulatorServers } from "./emulator-servers.js";

export interface RunningServers {
  dynamodb: string;
  fauxqs: string;
  pid: number;
  requestCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export async function startInProcess(): Promise<RunningServers> {
  const servers = await startEmulatorServers();
  return { ...servers, pid: process.pid, requestCounts: async () => servers.requestCounts() };
}

/**
 * The servers in a child process (emulator-process.ts, TypeScript: loaded through tsx, which
 * `--import` resolves from the working directory, the repository's root under npm scripts).
 */
export async function forkServers(): Promise<RunningServers> {
  const child = fork(fileURLToPath(new URL("./emulator-process.ts", import.meta.url)), {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = <K extends EmulatorProcessMessage["kind"]>(kind: K) =>
    new Promise<Extract<EmulatorProcessMessage, { kind: K }>>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the emulator process exited (${code})`));
      child.once("exit", onExit);
      const onMessage = (message: EmulatorProcessMessage) => {
        if (message.kind !== kind) return;
        child.off("message", onMessage).off("exit", onExit);
        resolve(message as Extract<EmulatorProcessMessage, { kind: K }>);
      };
      child.on("message", onMessage);
    });
  const ready = await next("ready");
  return {
    dynamodb: ready.dynamodb,
    fauxqs: ready.fauxqs,
    pid: child.pid as number,
    requestCounts: async () => {
      const reply = next("requests");
      child.send("requests");
      return (await reply).counts;
    },
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send("close");
      await exited;
    },
  };
}
