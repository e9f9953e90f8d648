import { EventCode, type Simulator, start } from "@fleet-alerts/simulator";
import { afterEach, describe, expect, it } from "vitest";
import {
  CLOCK_START,
  DEMO,
  gpsPoints,
  minuteOfStartDay,
  playbackAnswer,
  post,
  recordMap,
} from "./helpers.js";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

describe("a vehicle parked offline for days", () => {
  let simulator: Simulator;
  let deviceid: string;
  afterEach(() => simulator.close());

  /** The device on and recording for 15 minutes from the clock start; returns the park time. */
  async function driveThenPark(retentionDays: number): Promise<number> {
    simulator = await start({
      seed: 5,
      devices: 2,
      historyHours: 1,
      retentionDays,
      randomCameraFailures: false,
    });
    deviceid = simulator.control.devices()[0]?.deviceid as string;
    simulator.control.setOnline(deviceid, true);
    simulator.control.advance(15 * MINUTE_MS);
    return simulator.control.now().getTime();
  }

  const onlineIds = async () =>
    (await post<{ deviceid: string }[]>(simulator, "/gkdevice/onlinelist", DEMO)).json.map(
      (entry) => entry.deviceid,
    );

  it("uploads nothing while parked; its last minutes appear within the retention once it is back", async () => {
    const parkedAt = await driveThenPark(7);
    const recorded = await recordMap(simulator, deviceid, CLOCK_START);
    // Recording all along (video: 1, or 2 around a G-sensor).
    expect(recorded.slice(0, minuteOfStartDay(parkedAt)).every((value) => value === 1 || value === 2)).toBe(
      true,
    );
    const lastMinute = new Date(parkedAt - MINUTE_MS);
    expect(await playbackAnswer(simulator, deviceid, lastMinute)).toEqual({ status: 200 });

    const offline = simulator.control.parkOffline(deviceid);
    expect(offline).toMatchObject({
      deviceid,
      appdevid: EventCode.Offline,
      eventtime: CLOCK_START.toISOString().replace("00:00:00", "00:15:00"),
    });
    expect(await onlineIds()).not.toContain(deviceid);
    // The last two minutes before the link went down were not uploaded: not shown, not played.
    const unsynced = minuteOfStartDay(parkedAt - 2 * MINUTE_MS);
    const whileParked = await recordMap(simulator, deviceid, CLOCK_START);
    expect(whileParked.slice(0, unsynced)).toEqual(recorded.slice(0, unsynced));
    expect(whileParked.slice(unsynced)).toEqual(new Array(1440 - unsynced).fill(0));
    expect(await playbackAnswer(simulator, deviceid, lastMinute)).toEqual({
      status: 404,
      error: "no_recording",
    });

    const logged = simulator.control.advance(3 * DAY_MS);
    expect(logged.filter((event) => event.deviceid === deviceid)).toEqual([]);
    expect(await gpsPoints(simulator, deviceid, new Date(parkedAt + 1000), simulator.control.now())).toEqual(
      [],
    );
    expect(simulator.control.devices()[0]).toMatchObject({ mode: "off", online: false, pinned: "offline" });

    const online = simulator.control.setOnline(deviceid, true);
    expect(online).toMatchObject({ deviceid, appdevid: EventCode.Online });
    const back = await recordMap(simulator, deviceid, CLOCK_START);
    // All of it shown again; nothing recorded after the park (powered off).
    expect(back).toEqual(recorded);
    expect(back.slice(minuteOfStartDay(parkedAt) + 1)).toEqual(
      new Array(1440 - minuteOfStartDay(parkedAt) - 1).fill(0),
    );
    expect(await playbackAnswer(simulator, deviceid, lastMinute)).toEqual({ status: 200 });
  });

  it("loses the footage it had not uploaded when its card's retention passes while it is parked", async () => {
    const parkedAt = await driveThenPark(2);
    simulator.control.parkOffline(deviceid);
    simulator.control.advance(3 * DAY_MS);
    simulator.control.setOnline(deviceid, true);
    expect(await recordMap(simulator, deviceid, CLOCK_START)).toEqual(new Array(1440).fill(0));
    expect(await playbackAnswer(simulator, deviceid, new Date(parkedAt - MINUTE_MS))).toEqual({
      status: 404,
      error: "no_recording",
    });
    expect(simulator.control.cardHorizon(deviceid).getTime()).toBe(parkedAt + DAY_MS);
  });

  it("comes back by itself after forMs: Online logged then, and back in the simulation", async () => {
    const parkedAt = await driveThenPark(7);
    simulator.control.parkOffline(deviceid, { forMs: 3 * DAY_MS });
    const logged = simulator.control.advance(3 * DAY_MS + 10_000);
    const own = logged.filter((event) => event.deviceid === deviceid);
    expect(own.map((event) => event.appdevid)).toEqual([EventCode.Online]);
    const onlineMs = Date.parse(own[0]?.eventtime ?? "");
    // At the first 5-second tick of the device at or after the return time.
    expect(onlineMs - (parkedAt + 3 * DAY_MS)).toBeGreaterThanOrEqual(0);
    expect(onlineMs - (parkedAt + 3 * DAY_MS)).toBeLessThan(5_000);
    expect(simulator.control.devices()[0]).toMatchObject({ online: true, pinned: undefined });
    expect(await onlineIds()).toContain(deviceid);
    expect(await playbackAnswer(simulator, deviceid, new Date(parkedAt - MINUTE_MS))).toEqual({
      status: 200,
    });
  });

  it("logs no Offline for a device already off, and shows footage set by setRecording while parked", async () => {
    const parkedAt = await driveThenPark(7);
    simulator.control.parkOffline(deviceid);
    expect(simulator.control.parkOffline(deviceid)).toBeUndefined();
    const from = new Date(parkedAt - 2 * MINUTE_MS);
    expect(await playbackAnswer(simulator, deviceid, from)).toMatchObject({ status: 404 });
    simulator.control.setRecording(deviceid, from, new Date(parkedAt), 2);
    expect(await playbackAnswer(simulator, deviceid, from)).toEqual({ status: 200 });
    expect(() => simulator.control.parkOffline(deviceid, { forMs: -1 })).toThrow(/forMs/);
    expect(() => simulator.control.parkOffline("nope")).toThrow(/unknown device/);
  });
});
