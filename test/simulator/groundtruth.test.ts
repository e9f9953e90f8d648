import type { GpsPoint, GroundTruth, Simulator } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headingGap, metresBetween, startSmall } from "./helpers.js";

const HOUR_MS = 3_600_000;
const TICK_MS = 5_000;
const CLOCK_START_MS = Date.parse("2026-01-05T00:00:00Z");

function asTruth(point: GpsPoint): GroundTruth {
  return { lat: point.lat, lng: point.lng, speedKmh: point.speed, heading: point.dir };
}

/** Consecutive GPS points one tick apart: the vehicle's positions after two successive ticks. */
function tickPairs(track: GpsPoint[]): [GpsPoint, GpsPoint][] {
  return track
    .slice(1)
    .map((point, i) => [track[i] as GpsPoint, point] as [GpsPoint, GpsPoint])
    .filter(([before, after]) => (after.time - before.time) * 1000 === TICK_MS);
}

describe("ground truth (8 devices, 6 h of history)", () => {
  let simulator: Simulator;
  let ids: string[];

  beforeAll(async () => {
    simulator = await startSmall({ devices: 8, historyHours: 6, seed: 11 });
    ids = simulator.control.devices().map((device) => device.deviceid);
  });
  afterAll(() => simulator.close());

  it("is each GPS point at its time, and between two points the line between them at the later point's speed and heading", () => {
    // Worst gaps over every point and every tick: GPS points are rounded to 6 and 1 decimals.
    const worst = { metres: 0, speedKmh: 0, heading: 0 };
    const compare = (truth: GroundTruth | undefined, expected: GroundTruth) => {
      if (!truth) throw new Error("no ground truth inside the history");
      worst.metres = Math.max(worst.metres, metresBetween(truth, expected));
      worst.speedKmh = Math.max(worst.speedKmh, Math.abs(truth.speedKmh - expected.speedKmh));
      worst.heading = Math.max(worst.heading, headingGap(truth.heading, expected.heading));
    };
    let between = 0;
    for (const deviceid of ids) {
      const track = simulator.control.gpsTrack(deviceid);
      for (const point of track)
        compare(simulator.control.groundTruth(deviceid, new Date(point.time * 1000)), asTruth(point));
      for (const [before, after] of tickPairs(track)) {
        for (const share of [0.2, 0.5, 0.9]) {
          const at = new Date(before.time * 1000 + share * TICK_MS);
          compare(simulator.control.groundTruth(deviceid, at), {
            ...asTruth(after),
            lat: before.lat + (after.lat - before.lat) * share,
            lng: before.lng + (after.lng - before.lng) * share,
          });
          between++;
        }
      }
    }
    expect(between).toBeGreaterThan(50_000);
    expect(worst.metres).toBeLessThan(0.1);
    expect(worst.speedKmh).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(worst.heading).toBeLessThanOrEqual(0.05 + 1e-9);
  });

  it("covers within a tick the distance its speed gives: speed / 3.6 metres a second", () => {
    let moving = 0;
    let worstMetres = 0;
    for (const deviceid of ids) {
      for (const [before] of tickPairs(simulator.control.gpsTrack(deviceid))) {
        const at = before.time * 1000 + 1000;
        const first = simulator.control.groundTruth(deviceid, new Date(at));
        const second = simulator.control.groundTruth(deviceid, new Date(at + 1000));
        if (!first || !second) throw new Error("no ground truth inside the history");
        expect(second.speedKmh).toBe(first.speedKmh);
        worstMetres = Math.max(worstMetres, Math.abs(metresBetween(first, second) - first.speedKmh / 3.6));
        if (first.speedKmh > 0) moving++;
      }
    }
    expect(moving).toBeGreaterThan(5_000);
    expect(worstMetres).toBeLessThan(0.01);
  });

  it("is undefined for an unknown device and before the history; after the last tick it is the current state", () => {
    const [deviceid] = ids as [string];
    const historyStart = CLOCK_START_MS - 6 * HOUR_MS;
    expect(simulator.control.groundTruth("not-in-the-fleet", new Date(CLOCK_START_MS))).toBeUndefined();
    expect(simulator.control.groundTruth(deviceid, new Date(historyStart - TICK_MS))).toBeUndefined();
    expect(simulator.control.groundTruth(deviceid, new Date(historyStart))).toBeDefined();
    simulator.control.advance(12_345);
    const now = simulator.control.now();
    for (const { deviceid: id, lat, lng, speedKmh, heading } of simulator.control.devices()) {
      expect(simulator.control.groundTruth(id, now)).toEqual({ lat, lng, speedKmh, heading });
    }
  });

  it("stops where setOnline(false) stops the vehicle, between ticks, and stays there while held", () => {
    let driving = simulator.control.devices().find((device) => device.speedKmh > 0);
    for (let minutes = 0; !driving && minutes < 120; minutes++) {
      simulator.control.advance(60_000);
      driving = simulator.control.devices().find((device) => device.speedKmh > 0);
    }
    if (!driving) throw new Error("no vehicle drove in two hours");
    simulator.control.advance(2_500);
    const haltedAt = simulator.control.now().getTime();
    const before = simulator.control.groundTruth(driving.deviceid, new Date(haltedAt));
    simulator.control.setOnline(driving.deviceid, false);
    simulator.control.advance(10 * 60_000);
    for (const minutes of [1, 5, 10]) {
      const later = simulator.control.groundTruth(driving.deviceid, new Date(haltedAt + minutes * 60_000));
      expect(later).toMatchObject({ lat: before?.lat, lng: before?.lng, speedKmh: 0 });
    }
    simulator.control.release(driving.deviceid);
  });
});
