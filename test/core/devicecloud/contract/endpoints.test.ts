import {
  type DeviceCloudClient,
  DeviceCloudHttpError,
  hashPassword,
  MINUTE_RECORD,
  Secret,
} from "@fleet-alerts/core/devicecloud";
import type { Simulator } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startContract } from "./harness.js";

let simulator: Simulator;
let demo: DeviceCloudClient;
let admin: DeviceCloudClient;
let makeClient: Awaited<ReturnType<typeof startContract>>["client"];

beforeAll(async () => {
  const contract = await startContract({ devices: 8, historyHours: 30 });
  simulator = contract.simulator;
  makeClient = contract.client;
  demo = contract.client();
  admin = contract.client({ credentials: ADMIN });
  contract.control.advance(3 * 3_600_000);
});
afterAll(() => simulator.close());

const deviceIds = () => simulator.control.devices().map((device) => device.deviceid);

describe("device endpoints against the simulator", () => {
  it("1. GPS history: the points of the range, as numbers, ascending", async () => {
    const [deviceid] = deviceIds() as [string];
    const end = simulator.control.now();
    const start = new Date(end.getTime() - 3_600_000);
    const points = await demo.gpsHistory({ deviceid, start, end });
    const truth = simulator.control.gpsTrack(deviceid, start, end);
    expect(points).toEqual(truth);
    expect(points.length).toBeGreaterThan(0);
    expect(points.map((point) => point.time)).toEqual(
      [...points.map((point) => point.time)].sort((a, b) => a - b),
    );
  });

  it("2. settings: every field, the Wi-Fi password as a Secret", async () => {
    const [device] = simulator.control.devices();
    const settings = await demo.deviceSettings({ deviceid: device?.deviceid as string });
    expect(settings.net_wfpwd).toBeInstanceOf(Secret);
    expect(settings.net_wfpwd.reveal()).toBe(device?.settings.net_wfpwd);
    expect(JSON.stringify(settings)).not.toContain(device?.settings.net_wfpwd);
    expect(settings.preosd_plate).toBe(device?.settings.preosd_plate);
  });

  it("3. online list: exactly the online devices, and it follows state changes", async () => {
    const online = () =>
      simulator.control
        .devices()
        .filter((device) => device.online)
        .map((device) => device.deviceid);
    expect((await demo.onlineDevices()).map((device) => device.deviceid).sort()).toEqual(online().sort());
    const [first] = deviceIds() as [string];
    simulator.control.setOnline(first, false);
    const after = (await demo.onlineDevices()).map((device) => device.deviceid);
    expect(after).not.toContain(first);
    simulator.control.setOnline(first, true);
    expect((await demo.onlineDevices()).map((device) => device.deviceid)).toContain(first);
    simulator.control.release(first);
  });

  it("6. all list: every device with vehicle, driver, channels, gpsdata time in milliseconds", async () => {
    const all = await demo.allDevices();
    const truth = simulator.control.devices();
    expect(all.map((device) => device.deviceid)).toEqual(truth.map((device) => device.deviceid));
    for (const [index, device] of all.entries()) {
      const expected = truth[index];
      expect(device).toMatchObject({
        vehicleid: expected?.vehicleid,
        drivername: expected?.drivername,
        channel: expected?.channels,
      });
      if (device.gpsdata)
        expect(Math.abs(device.gpsdata.time - Date.parse(device.updatetime))).toBeLessThan(86_400_000);
    }
    // The simulator has devices reporting gpsdata.time in seconds: normalized all the same.
    expect(truth.some((device) => device.gpsTimeUnit === "seconds")).toBe(true);
  });

  it("5. single device status: for administrators only; unknown devices refused", async () => {
    const [device] = simulator.control.devices();
    const status = await admin.deviceStatus({ deviceid: device?.deviceid as string });
    expect(status.vehicleid).toBe(device?.vehicleid);
    const refused = await demo
      .deviceStatus({ deviceid: device?.deviceid as string })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DeviceCloudHttpError);
    expect(refused).toMatchObject({ status: 403, attempts: 1, retryable: false });
    await expect(admin.deviceStatus({ deviceid: "NO-SUCH-DEVICE" })).rejects.toMatchObject({ status: 404 });
  });

  it("7. registered devices: for administrators only", async () => {
    expect(await admin.registeredDevices()).toEqual(deviceIds());
    await expect(demo.registeredDevices()).rejects.toMatchObject({
      status: 403,
      source: "registeredDevices",
    });
  });

  it("4 and 9. record list and daily map agree with the recordings and with each other", async () => {
    const seen = new Set<number>();
    for (const deviceid of deviceIds()) {
      const records = await demo.recordList({ deviceid });
      expect(records).toEqual(simulator.control.recordings(deviceid));
      const dayStart = new Date(Date.UTC(2026, 0, 4));
      const map = await demo.dailyRecordMap({ deviceid, date: dayStart });
      expect(map).toEqual(simulator.control.dailyRecordMap(deviceid, dayStart));
      // A minute with video (normal or alert) lies in a record file; one without video in none.
      map.forEach((value, minute) => {
        const at = dayStart.getTime() / 1000 + minute * 60;
        const inFile = records.some((record) => record.start <= at && at < record.end);
        const hasVideo = value === MINUTE_RECORD.normal || value === MINUTE_RECORD.alert;
        expect(inFile, `${deviceid} minute ${minute} value ${value}`).toBe(hasVideo);
        seen.add(value);
      });
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3]);
  });

  it("refuses wrong credentials with 401 and says nothing of the hash", async () => {
    const wrong = makeClient({ credentials: { username: "demo", password: "not-demo" } });
    const error = (await wrong.allDevices().catch((caught: unknown) => caught)) as DeviceCloudHttpError;
    expect(error).toMatchObject({ status: 401, attempts: 1 });
    expect(error.message).not.toContain(hashPassword("not-demo"));
    expect(error.message).not.toContain("not-demo");
  });
});
