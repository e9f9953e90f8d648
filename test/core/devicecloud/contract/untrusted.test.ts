import { DEVICE_NAME_MAX } from "@fleet-alerts/core/devicecloud";
import type { Simulator } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startContract } from "./harness.js";

// What the service may send in the texts it controls, read through the client: kept as sent where
// any store and channel can carry it, and one bad device never costs the others their names.
const LONG_NAME = "N".repeat(DEVICE_NAME_MAX + 1);
let simulator: Simulator;
let contract: Awaited<ReturnType<typeof startContract>>;

beforeAll(async () => {
  contract = await startContract({
    devices: 4,
    historyHours: 1,
    identities: [
      { vehicleid: "TRK\uFFFF🚚", drivername: "\u001b[31m<script>\u202E" },
      { drivername: LONG_NAME },
      { vehicleid: "half \uD83D of an emoji" },
      { deviceid: "..", vehicleid: "N".repeat(DEVICE_NAME_MAX) },
    ],
  });
  simulator = contract.simulator;
});
afterAll(() => simulator.close());

describe("the device cloud's texts, read by the client", () => {
  it("keeps every device's names as sent, leaves out (and logs by position, never by value) the one that breaks the spec", async () => {
    const warnings: [string, Record<string, unknown>][] = [];
    const client = contract.client({
      logger: { warn: (message, attributes) => warnings.push([message, attributes]) },
    });
    const devices = await client.allDevices();
    const seeded = simulator.control.devices();
    expect(devices.map((device) => device.deviceid)).toEqual(
      seeded.filter((_, index) => index !== 1).map((device) => device.deviceid),
    );
    expect(devices[0]).toMatchObject({ vehicleid: "TRK\uFFFF🚚", drivername: "\u001b[31m<script>\u202E" });
    expect(devices[2]).toMatchObject({ deviceid: "..", vehicleid: "N".repeat(DEVICE_NAME_MAX) });
    expect(warnings).toEqual([
      [
        "a device of the all-devices list does not match the spec; left out",
        { endpoint: "allDevices", index: 1, issues: [expect.stringMatching(/^drivername: /)] },
      ],
    ]);
    expect(JSON.stringify(warnings)).not.toContain("NNNN");
  });

  it("reads a lone surrogate, which no UTF-8 store or channel can carry, as U+FFFD", async () => {
    const devices = await contract.client().allDevices();
    const half = devices.find((device) => device.vehicleid.startsWith("half"));
    expect(half?.vehicleid).toBe("half \uFFFD of an emoji");
    expect(half?.vehicleid.isWellFormed()).toBe(true);
  });
});
