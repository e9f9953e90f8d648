/**
 * The incident app in a process of its own, for the incident page's benchmark: the load generator
 * must not share its event loop, or the server's work would delay the generator's timing and the
 * generator's the server's. Built from this process's environment (the parent puts the app's there,
 * not in argv, which `ps` shows). Driven over the IPC channel of `fork()`: it reports
 * `{ kind: "ready", baseUrl }`, answers `"cpu"` with the CPU time it has used, and closes and exits
 * when told `"close"` or when its parent goes away.
 */
import { serveIncidentApp } from "@fleet-alerts/functions/incident-server";

export type IncidentServerMessage =
  | { kind: "ready"; baseUrl: string }
  | { kind: "cpu"; microseconds: number };

const server = await serveIncidentApp((baseUrl) => ({ ...process.env, PUBLIC_BASE_URL: baseUrl }));
const exit = async () => {
  await server.close();
  process.exit(0);
};
const send = (message: IncidentServerMessage) => process.send?.(message);
process.on("message", (message) => {
  if (message === "cpu") {
    const { user, system } = process.cpuUsage();
    send({ kind: "cpu", microseconds: user + system });
  }
  if (message === "close") void exit();
});
process.on("disconnect", () => void exit());
send({ kind: "ready", baseUrl: server.baseUrl });
