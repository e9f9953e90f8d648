/**
 * The emulator servers in a process of their own, driven over the IPC channel of `fork()`: it
 * reports `{ ready, dynamodb, fauxqs }` once listening, answers `"requests"` with the request
 * counts, and closes and exits when told `"close"` or when its parent goes away.
 */
import { startEmulatorServers } from "./emulator-servers.js";

export type EmulatorProcessMessage =
  | { kind: "ready"; dynamodb: string; fauxqs: string }
  | { kind: "requests"; counts: Record<string, number> };

const servers = await startEmulatorServers();
const send = (message: EmulatorProcessMessage) => process.send?.(message);
const exit = async () => {
  await servers.close();
  process.exit(0);
};
process.on("message", (message) => {
  if (message === "requests") send({ kind: "requests", counts: servers.requestCounts() });
  if (message === "close") void exit();
});
process.on("disconnect", () => void exit());
send({ kind: "ready", dynamodb: servers.dynamodb, fauxqs: servers.fauxqs });
