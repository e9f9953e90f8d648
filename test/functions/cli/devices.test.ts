import { type Simulator, start } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceCloudEnv, fleetAlerts } from "./run.js";

let simulator: Simulator;
beforeAll(async () => {
  simulator = await start({ seed: 6, devices: 8, historyHours: 1 });
  const [first, second] = simulator.control.devices();
  // One of each state whatever the seed did.
  simulator.control.setOnline(first?.deviceid ?? "", false);
  simulator.control.setOnline(second?.deviceid ?? "", true);
});
afterAll(() => simulator.close());

interface DeviceJson {
  deviceid: string;
  online: boolean;
  vehicleid: string;
  drivername: string;
  channels: number;
  position: { lat: number; lng: number; time: string } | null;
  updatetime: string;
}

describe("fleet-alerts devices", () => {
  it("lists every device with its state, vehicle, driver, channels and last position, as a table and as JSON", async () => {
    const env = deviceCloudEnv(simulator);
    const [table, json] = await Promise.all([
      fleetAlerts(["devices"], { env }),
      fleetAlerts(["devices", "--json"], { env }),
    ]);
    const truth = simulator.control.devices();
    const online = truth.filter((device) => device.online).length;
    expect(online).toBeGreaterThan(0);
    expect(online).toBeLessThan(truth.length);

    expect(table).toMatchObject({ code: 0, stderr: "" });
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^DEVICE +STATE +VEHICLE +DRIVER +CH +LAST POSITION +LAST UPDATE$/);
    expect(lines.at(-1)).toBe(`${truth.length} devices, ${online} online`);
    const rows = lines.slice(1, -1).map((line) => line.split(/ {2,}/));
    expect(
      rows.map(([deviceid, state, vehicle, driver, channels]) => [
        deviceid,
        state,
        vehicle,
        driver,
        channels,
      ]),
    ).toEqual(
      truth.map((device) => [
        device.deviceid,
        device.online ? "online" : "offline",
        device.vehicleid,
        device.drivername || "-",
        String(device.channels),
      ]),
    );

    expect(json).toMatchObject({ code: 0, stderr: "" });
    const listed = JSON.parse(json.stdout) as DeviceJson[];
    expect(
      listed.map(({ deviceid, online, vehicleid, drivername, channels }) => ({
        deviceid,
        online,
        vehicleid,
        drivername,
        channels,
      })),
    ).toEqual(
      truth.map((device) => ({
        deviceid: device.deviceid,
        online: device.online,
        vehicleid: device.vehicleid,
        drivername: device.drivername,
        channels: device.channels,
      })),
    );
    for (const [index, device] of truth.entries()) {
      const row = listed[index];
      if (!device.hasGpsAntenna) expect(row?.position).toBeNull();
      // Trips wander at most 25 km from home: well inside a degree.
      if (row?.position) expect(Math.abs(row.position.lat - device.home.lat)).toBeLessThan(1);
      expect(rows[index]?.[5]).toBe(
        row?.position ? `${row.position.lat.toFixed(6)},${row.position.lng.toFixed(6)}` : "-",
      );
      expect(rows[index]?.[6]).toBe(row?.updatetime);
    }
  });

  it("reports wrong credentials with exit code 1", async () => {
    const run = await fleetAlerts(["devices"], {
      env: { ...deviceCloudEnv(simulator), DEVICE_CLOUD_PASSWORD: "not-demo" },
    });
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "fleet-alerts: device cloud allDevices (POST /gkdevice/alllist): HTTP 401 (unknown username or wrong password) after 1 attempt\n",
    });
  });
});

describe("fleet-alerts devices --account", () => {
  it("connects with the named account's settings, and names the accounts when one must be chosen", async () => {
    const accounts = [
      { id: "north", baseUrl: simulator.url, username: "demo", passwordEnv: "NORTH_PASSWORD" },
      { id: "south", baseUrl: "http://127.0.0.1:9", username: "demo" },
    ];
    const [byEntry, bySecretNames, unnamed] = await Promise.all([
      fleetAlerts(["devices", "--account", "north", "--json"], {
        env: { DEVICE_CLOUD_ACCOUNTS: JSON.stringify(accounts), NORTH_PASSWORD: "demo" },
      }),
      fleetAlerts(["devices", "--account", "depot-east", "--json"], {
        env: {
          // The stage's secret names win over the plain settings (here an address nothing answers).
          DEVICE_CLOUD_BASE_URL: "http://127.0.0.1:9",
          DEVICE_CLOUD_DEPOT_EAST_BASE_URL: simulator.url,
          DEVICE_CLOUD_DEPOT_EAST_USERNAME: "demo",
          DEVICE_CLOUD_DEPOT_EAST_PASSWORD: "demo",
        },
      }),
      fleetAlerts(["devices"], { env: { DEVICE_CLOUD_ACCOUNTS: JSON.stringify(accounts) } }),
    ]);
    const count = simulator.control.devices().length;
    expect(byEntry.code).toBe(0);
    expect((JSON.parse(byEntry.stdout) as unknown[]).length).toBe(count);
    expect(bySecretNames.code).toBe(0);
    expect((JSON.parse(bySecretNames.stdout) as unknown[]).length).toBe(count);
    expect(unnamed).toMatchObject({
      code: 1,
      stderr: "fleet-alerts: --account is required: configured are north, south\n",
    });
  });
});
