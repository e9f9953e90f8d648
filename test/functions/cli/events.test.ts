import { type SimEvent, type Simulator, start } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceCloudEnv, fleetAlerts } from "./run.js";

let simulator: Simulator;
beforeAll(async () => {
  simulator = await start({ seed: 2, devices: 4, historyHours: 1 });
});
afterAll(() => simulator.close());

const line = (event: SimEvent, name: string) =>
  `${event.serialno}  ${event.eventtime}  ${event.deviceid}  ${event.appdevid} ${name}`;

describe("fleet-alerts events tail", () => {
  it("starts at the newest event, prints events logged meanwhile in order, and stops on Ctrl-C", async () => {
    const newest = simulator.control.events().at(-1)?.serialno;
    const [, other] = simulator.control.devices();
    let injected: SimEvent[] = [];
    let interrupted = false;
    const run = await fleetAlerts(["events", "tail", "--interval", "0.2"], {
      env: deviceCloudEnv(simulator),
      onOutput: ({ stdout, stderr }, child) => {
        if (injected.length === 0 && stderr.includes("Following events")) {
          injected = [
            simulator.control.injectEvent({ appdevid: 13 }),
            simulator.control.injectEvent({ appdevid: 16, deviceid: other?.deviceid }),
            simulator.control.injectEvent({ appdevid: 250 }),
          ];
        }
        // Once: a second Ctrl-C ends the process the hard way, as it should.
        if (!interrupted && injected.length > 0 && stdout.split("\n").length > injected.length) {
          interrupted = true;
          child.kill("SIGINT");
        }
      },
    });
    const [overspeed, gsensor, unknown] = injected as [SimEvent, SimEvent, SimEvent];
    expect(run).toEqual({
      code: 0,
      stdout: `${[line(overspeed, "OverSpeed"), line(gsensor, "GSensor"), line(unknown, "Unknown event 250")].join("\n")}\n`,
      stderr: `Following events after serial ${newest} (Ctrl-C to stop)\nStopped: 3 events printed\n`,
    });
  });

  it("starts after --from-serial, keeps only --codes, and stops after --duration", async () => {
    const history = simulator.control.events();
    const from = history[Math.floor(history.length / 2)]?.serialno ?? 0n;
    const run = await fleetAlerts(
      ["events", "tail", "--from-serial", String(from), "--codes", "13,GSensor", "--duration", "0.5"],
      { env: deviceCloudEnv(simulator) },
    );
    const expected = simulator.control
      .events()
      .filter((event) => event.serialno > from && (event.appdevid === 13 || event.appdevid === 16));
    expect(expected.length).toBeGreaterThan(0);
    expect(run).toEqual({
      code: 0,
      stdout: expected
        .map((event) => `${line(event, event.appdevid === 13 ? "OverSpeed" : "GSensor")}\n`)
        .join(""),
      stderr: `Following events after serial ${from} (Ctrl-C to stop)\nStopped: ${expected.length} events printed\n`,
    });
  });
});
