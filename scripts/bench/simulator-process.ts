/**
 * The device-cloud simulator in a process of its own, for the backlog benchmark: the real device
 * cloud is a remote service, so its work (answering event queries and /api/gps calls) must not
 * share the poller's CPU, as the AWS emulators do not. Driven over the IPC channel of `fork()`:
 * it reports `{ kind: "ready", url }`, then answers each request with a reply of the same `id`.
 */
import { start } from "@fleet-alerts/simulator";

export type SimulatorRequest =
  | { id: number; kind: "advance"; ms: number }
  | { id: number; kind: "events-after"; serialno: string }
  | { id: number; kind: "gps-calls" }
  | { id: number; kind: "reachable"; reachable: boolean }
  | { id: number; kind: "latency"; latencyMs: number }
  | { id: number; kind: "inject"; appdevid: number; deviceIndex: number }
  | { id: number; kind: "close" };
export type SimulatorReply = { kind: "ready"; url: string } | { kind: "reply"; id: number; value: number };

// Options travel as JSON: a clock start comes as its ISO text.
const options = JSON.parse(process.argv[2] ?? "{}");
if (typeof options.clock?.start === "string") options.clock.start = new Date(options.clock.start);
const simulator = await start(options);
const reply = (id: number, value: number) =>
  process.send?.({ kind: "reply", id, value } satisfies SimulatorReply);

process.on("message", async (request: SimulatorRequest) => {
  const { control } = simulator;
  switch (request.kind) {
    case "advance":
      control.advance(request.ms);
      return reply(request.id, 0);
    case "events-after":
      return reply(
        request.id,
        control.events().filter((event) => event.serialno > BigInt(request.serialno)).length,
      );
    case "reachable":
      // Unreachable: every call refused at once, as a service down behind its load balancer is.
      if (request.reachable) control.faults.clear();
      else control.faults.add({ endpoint: "*", kind: "status503", probability: 1, retryAfterSeconds: 0 });
      return reply(request.id, 0);
    case "latency":
      control.faults.add({ endpoint: "*", kind: "latency", latencyMs: request.latencyMs });
      return reply(request.id, 0);
    case "inject": {
      const device = control.devices()[request.deviceIndex % control.devices().length];
      if (device) control.injectEvent({ appdevid: request.appdevid, deviceid: device.deviceid });
      return reply(request.id, 0);
    }
    case "gps-calls":
      return reply(request.id, control.requests.filter((entry) => entry.endpoint === "gps").length);
    case "close":
      await simulator.close();
      reply(request.id, 0);
      process.exit(0);
  }
});
process.on("disconnect", () => void simulator.close().then(() => process.exit(0)));
process.send?.({ kind: "ready", url: simulator.url } satisfies SimulatorReply);
