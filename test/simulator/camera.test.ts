import { EventCode, type SimEvent, type Simulator, start } from "@fleet-alerts/simulator";
import { afterEach, describe, expect, it } from "vitest";
import {
  CLOCK_START,
  gpsPoints,
  minuteOfStartDay,
  playbackAnswer,
  queryEvents,
  recordMap,
} from "./helpers.js";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

describe("a camera that fails", () => {
  let simulator: Simulator;
  let deviceid: string;
  afterEach(() => simulator.close());

  /** A device kept on (so it drives and records), its camera failed 5 minutes after the clock start, for 20 minutes. */
  async function failFor20Minutes(mode: "gps-only" | "no-record") {
    simulator = await start({ seed: 5, devices: 2, historyHours: 1, randomCameraFailures: false });
    deviceid = simulator.control.devices()[0]?.deviceid as string;
    simulator.control.setOnline(deviceid, true);
    simulator.control.advance(5 * MINUTE_MS);
    simulator.control.failCamera(deviceid, { mode, channel: 2 });
    const failedAt = simulator.control.now().getTime();
    const logged = simulator.control.advance(20 * MINUTE_MS);
    return { failedAt, logged };
  }

  it("logs VideoLoss, then records GPS only while the vehicle drives; GPS history goes on, playback is refused", async () => {
    const { failedAt, logged } = await failFor20Minutes("gps-only");
    const videoLoss = logged.filter(
      (event: SimEvent) => event.deviceid === deviceid && event.appdevid === EventCode.VideoLoss,
    );
    expect(videoLoss).toHaveLength(1);
    expect(videoLoss[0]).toMatchObject({ type: 2 });
    const { json: queried } = await queryEvents(simulator, { deviceid, appdevid: EventCode.VideoLoss });
    expect(queried.map((event) => event.serialno)).toContain(String(videoLoss[0]?.serialno));
    expect(simulator.control.devices()[0]).toMatchObject({ camera: "gps-only", diskError: false });

    const map = await recordMap(simulator, deviceid, CLOCK_START);
    const failedMinutes = map.slice(minuteOfStartDay(failedAt) + 1, minuteOfStartDay(failedAt) + 20);
    expect(failedMinutes).toEqual(new Array(19).fill(3));
    expect(map.slice(0, minuteOfStartDay(failedAt))).not.toContain(3);
    const points = await gpsPoints(simulator, deviceid, new Date(failedAt), simulator.control.now());
    expect(points.length).toBeGreaterThan(200);
    // It drove: the case a recorder audit must catch.
    expect(points.filter((point) => Number(point.speed) > 0).length).toBeGreaterThan(100);
    expect(await playbackAnswer(simulator, deviceid, new Date(failedAt + MINUTE_MS), 10)).toEqual({
      status: 404,
      error: "no_recording",
    });

    simulator.control.repairCamera(deviceid);
    const repairedAt = simulator.control.now().getTime();
    simulator.control.advance(5 * MINUTE_MS);
    expect(simulator.control.devices()[0]).toMatchObject({ camera: "ok" });
    const after = (await recordMap(simulator, deviceid, CLOCK_START)).slice(
      minuteOfStartDay(repairedAt) + 1,
      minuteOfStartDay(repairedAt) + 5,
    );
    expect(after.every((value) => value === 1 || value === 2)).toBe(true);
    expect(await playbackAnswer(simulator, deviceid, new Date(repairedAt + MINUTE_MS))).toEqual({
      status: 200,
    });
  });

  it("records nothing at all in the no-record mode, GPS history still kept", async () => {
    const { failedAt } = await failFor20Minutes("no-record");
    const map = await recordMap(simulator, deviceid, CLOCK_START);
    expect(map.slice(minuteOfStartDay(failedAt) + 1, minuteOfStartDay(failedAt) + 20)).toEqual(
      new Array(19).fill(0),
    );
    expect(
      (await gpsPoints(simulator, deviceid, new Date(failedAt), simulator.control.now())).length,
    ).toBeGreaterThan(200);
    expect(await playbackAnswer(simulator, deviceid, new Date(failedAt + MINUTE_MS), 10)).toMatchObject({
      status: 404,
    });
  });

  it("refuses an unknown mode, a channel the device lacks and an unknown device", async () => {
    simulator = await start({ devices: 1, historyHours: 0 });
    const [device] = simulator.control.devices();
    const id = device?.deviceid as string;
    expect(() => simulator.control.failCamera(id, { mode: "broken" as "gps-only" })).toThrow(/mode/);
    expect(() =>
      simulator.control.failCamera(id, { mode: "gps-only", channel: (device?.channels ?? 0) + 1 }),
    ).toThrow(/channel/);
    expect(() => simulator.control.failCamera("nope", { mode: "gps-only" })).toThrow(/unknown device/);
  });
});

describe("recorder faults in the normal simulation", () => {
  it("now and then leaves a camera failed after a VideoLoss, moving no other draw; Lost Record Cover at a low rate", async () => {
    const options = { seed: 3, devices: 20, historyHours: 48 };
    const faulty = await start(options);
    const steady = await start({ ...options, randomCameraFailures: false });
    try {
      const events = faulty.control.events();
      // Failures draw from a stream of their own: the events are the same with or without them.
      expect(events).toEqual(steady.control.events());
      const hours = 20 * 48;
      const lostCovers = events.filter((event) => event.appdevid === EventCode.LostRecordCover);
      expect(lostCovers.length).toBeGreaterThan(0);
      expect(lostCovers.length / hours).toBeLessThan(0.2);

      // Where the two runs differ, the camera had failed: no video since a VideoLoss of the device.
      let lasting = 0;
      for (const { deviceid } of faulty.control.devices()) {
        const losses = events
          .filter((event) => event.deviceid === deviceid && event.appdevid === EventCode.VideoLoss)
          .map((event) => Date.parse(event.eventtime));
        for (let day = 0; day < 3; day++) {
          const date = new Date(CLOCK_START.getTime() - (2 - day) * 24 * HOUR_MS);
          const withFailures = faulty.control.dailyRecordMap(deviceid, date);
          const without = steady.control.dailyRecordMap(deviceid, date);
          withFailures.forEach((value, minute) => {
            if (value === without[minute]) return;
            const minuteMs = date.getTime() + minute * MINUTE_MS;
            expect([0, 3]).toContain(value);
            // Within the 20 to 240 minutes after one of the device's VideoLoss events.
            expect(
              losses.some((lossMs) => lossMs <= minuteMs + MINUTE_MS && minuteMs < lossMs + 241 * MINUTE_MS),
            ).toBe(true);
            if (minute === 0 || withFailures[minute - 1] === without[minute - 1]) lasting++;
          });
        }
      }
      const videoLosses = events.filter((event) => event.appdevid === EventCode.VideoLoss).length;
      expect(lasting).toBeGreaterThan(0);
      expect(lasting).toBeLessThan(videoLosses / 4);
    } finally {
      await faulty.close();
      await steady.close();
    }
  });

  it("logs a Lost Record Cover injected for a device, as the service would send it", async () => {
    const simulator = await start({ devices: 2, historyHours: 0 });
    try {
      const deviceid = simulator.control.devices()[1]?.deviceid as string;
      const injected = simulator.control.injectEvent({ appdevid: EventCode.LostRecordCover, deviceid });
      const { json } = await queryEvents(simulator, { deviceid, appdevid: EventCode.LostRecordCover });
      expect(json).toEqual([
        expect.objectContaining({ serialno: String(injected.serialno), deviceid, appdevid: 98, type: 0 }),
      ]);
    } finally {
      await simulator.close();
    }
  });
});
