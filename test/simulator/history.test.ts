import { createHash } from "node:crypto";
import { type Simulator, start } from "@fleet-alerts/simulator";
import { afterEach, describe, expect, it } from "vitest";
import { CLOCK_START, gpsPoints, playbackAnswer, queryEvents, recordList } from "./helpers.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describe("the history a simulator starts with", () => {
  let simulator: Simulator;
  afterEach(() => simulator.close());

  it("holds GPS points, recordings that play and events from before the clock start", async () => {
    simulator = await start({ seed: 1, devices: 4, historyHours: 2 });
    const historyStart = new Date(CLOCK_START.getTime() - 2 * HOUR_MS);
    const { json: events } = await queryEvents(simulator, { beforeTime: "2026-01-05T00:00:00Z" });
    expect(events.length).toBeGreaterThan(10);
    expect(events.every((event) => String(event.eventtime) >= historyStart.toISOString())).toBe(true);

    let devicesWithHistory = 0;
    for (const { deviceid } of simulator.control.devices()) {
      const points = await gpsPoints(simulator, deviceid, historyStart, CLOCK_START);
      const files = (await recordList(simulator, deviceid)).filter(
        (entry) => entry.start * 1000 < CLOCK_START.getTime(),
      );
      if (points.length === 0 || files.length === 0) continue;
      devicesWithHistory++;
      expect(points[0]?.time).toBeGreaterThanOrEqual(historyStart.getTime() / 1000);
      expect(files[0]?.start).toBeGreaterThanOrEqual(historyStart.getTime() / 1000);
      expect(await playbackAnswer(simulator, deviceid, new Date((files[0]?.start ?? 0) * 1000))).toEqual({
        status: 200,
      });
    }
    expect(devicesWithHistory).toBeGreaterThanOrEqual(2);
  });

  it("starts with none when historyHours is 0", async () => {
    simulator = await start({ seed: 1, devices: 4, historyHours: 0 });
    const { json: events } = await queryEvents(simulator);
    expect(events).toEqual([]);
    for (const { deviceid } of simulator.control.devices()) {
      expect(await recordList(simulator, deviceid)).toEqual([]);
    }
  });
});

describe("advancing by days", () => {
  /** The whole observable run: events, tracks, record lists and device states. */
  function fingerprint(simulator: Simulator): string {
    const { control } = simulator;
    const ids = control.devices().map((device) => device.deviceid);
    const run = {
      events: control.events(),
      tracks: ids.map((id) => control.gpsTrack(id)),
      recordings: ids.map((id) => control.recordings(id)),
      devices: control.devices(),
    };
    return createHash("sha256")
      .update(JSON.stringify(run, (_key, value) => (typeof value === "bigint" ? value.toString() : value)))
      .digest("hex");
  }

  it("gives the same days in one advance as in hourly ones, a parked vehicle and a failed camera included", async () => {
    const runs: string[] = [];
    for (const steps of [1, 96]) {
      const simulator = await start({ seed: 7, devices: 3, historyHours: 2, retentionDays: [2, 3, 4] });
      try {
        const [parked, failed] = simulator.control.devices().map((device) => device.deviceid) as [
          string,
          string,
        ];
        simulator.control.parkOffline(parked, { forMs: 3 * DAY_MS });
        simulator.control.failCamera(failed, { mode: "gps-only" });
        for (let step = 0; step < steps; step++) simulator.control.advance((4 * DAY_MS) / steps);
        const events = simulator.control.events();
        // Four days of a fleet that keeps driving: events on each of them.
        for (let day = 0; day < 4; day++) {
          const date = new Date(CLOCK_START.getTime() + day * DAY_MS).toISOString().slice(0, 10);
          expect(events.some((event) => event.eventtime.startsWith(date))).toBe(true);
        }
        runs.push(fingerprint(simulator));
      } finally {
        await simulator.close();
      }
    }
    expect(runs[1]).toBe(runs[0]);
  });
});
