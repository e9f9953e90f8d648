import { EventCode, type GpsPoint, type SimEvent, type Simulator } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metresBetween, startSmall } from "./helpers.js";

const TICK_MS = 5_000;
const LOCATED_CODES = [
  EventCode.OverSpeed,
  EventCode.Idle,
  EventCode.GSensor,
  EventCode.TriggerIn,
  EventCode.UnlistedGeofence,
];

/** The GPS point at or right after `atMs`: the one of the tick the event happened in, if reported. */
function nextPoint(track: GpsPoint[], atMs: number): GpsPoint | undefined {
  const next = track.find((point) => point.time * 1000 >= atMs);
  return next && next.time * 1000 - atMs < TICK_MS ? next : undefined;
}

/** The device's GPS points either side of `atMs` when they are one tick apart (connected, with a fix). */
function bracket(track: GpsPoint[], atMs: number): [GpsPoint, GpsPoint] | undefined {
  const next = nextPoint(track, atMs);
  const before = next && track[track.indexOf(next) - 1];
  if (!next || !before || (next.time - before.time) * 1000 !== TICK_MS) return undefined;
  return [before, next];
}

describe("where events say the vehicle was (10 devices, 8 h of history)", () => {
  let simulator: Simulator;
  let events: SimEvent[];
  const tracks = new Map<string, GpsPoint[]>();
  const truthAt = (event: SimEvent) => {
    const truth = simulator.control.groundTruth(event.deviceid, new Date(event.eventtime));
    if (!truth) throw new Error(`no ground truth for event ${event.serialno}`);
    return truth;
  };

  beforeAll(async () => {
    simulator = await startSmall({ devices: 10, historyHours: 8, seed: 5 });
    events = simulator.control.events();
    for (const { deviceid } of simulator.control.devices()) {
      tracks.set(deviceid, simulator.control.gpsTrack(deviceid));
    }
  });
  afterAll(() => simulator.close());

  it("puts every event with coordinates within 1 m of the ground truth at its own eventtime", () => {
    const located = events.filter((event) => event.vehiclex !== null);
    expect(located.length).toBeGreaterThan(200);
    expect(new Set(located.map((event) => event.appdevid))).toEqual(new Set(LOCATED_CODES));
    const worst = Math.max(
      ...located.map((event) =>
        metresBetween(truthAt(event), { lat: Number(event.vehicley), lng: Number(event.vehiclex) }),
      ),
    );
    expect(worst).toBeLessThan(1);
    // Not the position at the tick: a moving vehicle is tens of metres from the next GPS point.
    const fromNextPoint = located.map((event) => {
      const next = nextPoint(tracks.get(event.deviceid) ?? [], Date.parse(event.eventtime));
      return next ? metresBetween(next, { lat: Number(event.vehicley), lng: Number(event.vehiclex) }) : 0;
    });
    expect(Math.max(...fromNextPoint)).toBeGreaterThan(20);
  });

  it("gives OverSpeed the true speed at the event in its memo, the speed the next GPS point shows", () => {
    const overSpeed = events.filter((event) => event.appdevid === EventCode.OverSpeed);
    expect(overSpeed.length).toBeGreaterThan(30);
    const limits = new Map(
      simulator.control.devices().map((device) => [device.deviceid, device.speedLimitKmh]),
    );
    let withNextPoint = 0;
    for (const event of overSpeed) {
      const [, speed, limit] = /^(\d+\.\d) km\/h, limit (\d+) km\/h$/.exec(event.memo ?? "") ?? [];
      expect(Number(limit)).toBe(limits.get(event.deviceid));
      expect(Number(speed)).toBeGreaterThanOrEqual(Number(limit));
      expect(Math.abs(Number(speed) - truthAt(event).speedKmh)).toBeLessThanOrEqual(0.05 + 1e-9);
      const next = nextPoint(tracks.get(event.deviceid) ?? [], Date.parse(event.eventtime));
      if (!next) continue;
      expect(next.speed).toBe(Number(speed));
      withNextPoint++;
    }
    expect(withNextPoint / overSpeed.length).toBeGreaterThan(0.8);
  });

  it("lets a client interpolate the GPS history either side of any event to within a few metres of the truth", () => {
    let interpolated = 0;
    let worst = 0;
    for (const event of events) {
      const atMs = Date.parse(event.eventtime);
      const points = bracket(tracks.get(event.deviceid) ?? [], atMs);
      if (!points) continue;
      const [before, after] = points;
      const share = (atMs - before.time * 1000) / TICK_MS;
      const estimate = {
        lat: before.lat + (after.lat - before.lat) * share,
        lng: before.lng + (after.lng - before.lng) * share,
      };
      worst = Math.max(worst, metresBetween(estimate, truthAt(event)));
      interpolated++;
    }
    expect(interpolated).toBeGreaterThan(300);
    expect(worst).toBeLessThan(3);
  });
});
