import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { SimulatorOptions } from "@fleet-alerts/simulator";
import type { SimulatorReply, SimulatorRequest } from "./simulator-process.js";

type Request = SimulatorRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

/** The simulator in a child process (simulator-process.ts), with the few controls the bench uses. */
export async function forkSimulator(options: SimulatorOptions) {
  const child = fork(
    fileURLToPath(new URL("./simulator-process.ts", import.meta.url)),
    [JSON.stringify(options)],
    {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the simulator process exited (${code})`)));
    child.once("message", (message: SimulatorReply) => message.kind === "ready" && resolve(message.url));
  });
  let lastId = 0;
  const ask = (request: Request) =>
    new Promise<number>((resolve) => {
      const id = ++lastId;
      const onMessage = (message: SimulatorReply) => {
        if (message.kind !== "reply" || message.id !== id) return;
        child.off("message", onMessage);
        resolve(message.value);
      };
      child.on("message", onMessage);
      child.send({ ...request, id });
    });
  return {
    url,
    advance: (ms: number) => ask({ kind: "advance", ms }),
    eventsAfter: (serialno: bigint) => ask({ kind: "events-after", serialno: serialno.toString() }),
    gpsCalls: () => ask({ kind: "gps-calls" }),
    /** Every answer `latencyMs` late, as a service that far away. */
    addLatency: (latencyMs: number) => ask({ kind: "latency", latencyMs }),
    /** An event of `appdevid` now, on the fleet's device at `deviceIndex`. */
    inject: (appdevid: number, deviceIndex: number) => ask({ kind: "inject", appdevid, deviceIndex }),
    /** Every call to the device cloud refused (503), or answered again. */
    setReachable: (reachable: boolean) => ask({ kind: "reachable", reachable }),
    close: async () => {
      if (child.exitCode === null) await ask({ kind: "close" });
    },
  };
}
