import type { DeviceSnapshot, Simulator } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, post, startSmall } from "./helpers.js";

const TICK_MS = 5_000;
const MINUTE_MS = 60_000;

interface StatusEntry {
  deviceid: string;
  status: number;
  nmea: string;
  gpsdata?: { time: number; lat: number; lng: number; speedInKmh: number; trackingAngle: number };
}

/** An online device's status fix, with how old it was when the service showed it. */
interface Sample {
  entry: StatusEntry;
  timeMs: number;
  ageMs: number;
}

describe("status fixes (12 devices, sampled every 17 s for an hour)", () => {
  let simulator: Simulator;
  let devices: Map<string, DeviceSnapshot>;
  const samples: Sample[] = [];

  beforeAll(async () => {
    simulator = await startSmall({ devices: 12, historyHours: 2, seed: 8 });
    devices = new Map(simulator.control.devices().map((device) => [device.deviceid, device]));
    for (let step = 0; step < 212; step++) {
      simulator.control.advance(17_000);
      const nowMs = simulator.control.now().getTime();
      const { json } = await post<StatusEntry[]>(simulator, "/gkdevice/alllist", ADMIN);
      for (const entry of json) {
        if (entry.status !== 1 || !entry.gpsdata) continue;
        const inSeconds = devices.get(entry.deviceid)?.gpsTimeUnit === "seconds";
        const timeMs = entry.gpsdata.time * (inSeconds ? 1000 : 1);
        samples.push({ entry, timeMs, ageMs: nowMs - timeMs });
      }
    }
  });
  afterAll(() => simulator.close());

  const intervalOf = (sample: Sample) => devices.get(sample.entry.deviceid)?.statusIntervalMs ?? Number.NaN;

  it("seeds an interval per device: 1 to 5 minutes, every tick for a few", () => {
    const intervals = [...devices.values()].map((device) => device.statusIntervalMs);
    expect(intervals.filter((interval) => interval === TICK_MS).length).toBeGreaterThanOrEqual(1);
    expect(intervals.filter((interval) => interval === TICK_MS).length).toBeLessThanOrEqual(2);
    for (const interval of intervals.filter((ms) => ms !== TICK_MS)) {
      expect([1, 2, 3, 4, 5].map((minutes) => minutes * MINUTE_MS)).toContain(interval);
    }
    expect(new Set(intervals).size).toBeGreaterThanOrEqual(3);
  });

  it("shows an online device's fix at most one status interval old, minutes old for some", () => {
    expect(samples.length).toBeGreaterThan(500);
    for (const sample of samples) {
      expect(sample.ageMs).toBeGreaterThanOrEqual(0);
      expect(sample.ageMs).toBeLessThan(intervalOf(sample));
    }
    const everyTick = samples.filter((sample) => intervalOf(sample) === TICK_MS);
    expect(everyTick.length).toBeGreaterThan(50);
    expect(Math.max(...samples.map((sample) => sample.ageMs))).toBeGreaterThan(2 * MINUTE_MS);
    // Ages spread over the whole interval, not just its start.
    const slow = samples.filter((sample) => intervalOf(sample) >= MINUTE_MS);
    expect(Math.max(...slow.map((sample) => sample.ageMs / intervalOf(sample)))).toBeGreaterThan(0.9);
  });

  it("shows a fix the GPS history holds, which kept a point every tick meanwhile", () => {
    for (const { entry, timeMs } of samples) {
      const at = new Date(timeMs);
      const [point] = simulator.control.gpsTrack(entry.deviceid, at, at);
      expect(point, `${entry.deviceid} at ${at.toISOString()}`).toBeDefined();
      expect(entry.gpsdata).toEqual({
        time: entry.gpsdata?.time,
        lat: point?.lat,
        lng: point?.lng,
        speedInKmh: point?.speed,
        trackingAngle: point?.dir,
      });
      expect(entry.nmea).toContain(`,${at.toISOString().slice(11, 19).replaceAll(":", "")}.00,A,`);
    }
    const [slowest] = [...devices.values()].sort((a, b) => b.statusIntervalMs - a.statusIntervalMs);
    const track = simulator.control.gpsTrack(slowest?.deviceid ?? "");
    const gaps = new Set(track.slice(1).map((point, i) => point.time - (track[i]?.time ?? 0)));
    expect(gaps).toContain(TICK_MS / 1000);
  });
});
