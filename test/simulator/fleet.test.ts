import { EventCode, type SimEvent, type Simulator, start } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, post, queryEvents, startSmall } from "./helpers.js";

interface AllListEntry {
  deviceid: string;
  status: number;
  nmea: string;
  updatetime: string;
  gpsdata?: { time: number; lat: number; lng: number };
}

const SPEC_CODES = [0, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 16, 51, 52, 90, 91, 92, 98];
const MINUTE_MS = 60_000;

function lastOf(events: SimEvent[], deviceid: string, codes: number[]): SimEvent | undefined {
  return events.filter((event) => event.deviceid === deviceid && codes.includes(event.appdevid)).at(-1);
}

describe("simulated fleet (default options: 20 devices, 24 h of history)", () => {
  let simulator: Simulator;
  let events: SimEvent[];

  beforeAll(async () => {
    simulator = await start();
    events = simulator.control.events();
  });
  afterAll(() => simulator.close());

  it("logs every event code of the spec and some codes outside it, at a plausible rate", () => {
    const codes = new Set(events.map((event) => event.appdevid));
    for (const code of SPEC_CODES) expect(codes, `code ${code}`).toContain(code);
    for (const code of [7, 77, 120]) expect(codes).toContain(code);
    const perDeviceHour = events.length / 20 / 24;
    expect(perDeviceHour).toBeGreaterThanOrEqual(5);
    expect(perDeviceHour).toBeLessThanOrEqual(30);
    const share = (code: number) => events.filter((event) => event.appdevid === code).length / events.length;
    expect(share(EventCode.OverSpeed)).toBeGreaterThan(0.05);
    expect(share(EventCode.GSensor)).toBeGreaterThan(0.05);
  });

  it("numbers events with increasing, sparse serials and never-decreasing updatetime", () => {
    const gaps = new Set<bigint>();
    for (let i = 1; i < events.length; i++) {
      const [previous, current] = [events[i - 1] as SimEvent, events[i] as SimEvent];
      expect(current.serialno).toBeGreaterThan(previous.serialno);
      expect(current.updatetime >= previous.updatetime).toBe(true);
      expect(current.eventtime <= current.updatetime).toBe(true);
      gaps.add(current.serialno - previous.serialno);
    }
    expect(events[0]?.serialno).toBe(1_000_000n);
    expect(gaps.size).toBeGreaterThan(10);
    // Events uploaded late (after a network drop or a slow upload) break eventtime order.
    expect(events.some((event, i) => i > 0 && event.eventtime < (events[i - 1] as SimEvent).eventtime)).toBe(
      true,
    );
  });

  it("logs OverSpeed where the GPS track is above the device's limit", () => {
    const devices = new Map(simulator.control.devices().map((device) => [device.deviceid, device]));
    const overSpeed = events.filter((event) => event.appdevid === EventCode.OverSpeed);
    const confirmed = overSpeed.filter((event) => {
      const device = devices.get(event.deviceid);
      const at = Date.parse(event.eventtime);
      const points = simulator.control.gpsTrack(event.deviceid, new Date(at - 10_000), new Date(at + 10_000));
      return device !== undefined && points.some((point) => point.speed > device.speedLimitKmh);
    });
    expect(overSpeed.length).toBeGreaterThan(50);
    expect(confirmed.length / overSpeed.length).toBeGreaterThan(0.85);
  });

  it("marks the minute of a GSensor event as an alert record (2) in the daily map", () => {
    const gsensor = events.filter((event) => event.appdevid === EventCode.GSensor);
    const alertMinutes = gsensor.filter((event) => {
      const minuteStart = Math.floor(Date.parse(event.eventtime) / MINUTE_MS) * MINUTE_MS;
      return simulator.control.dailyRecordMap(event.deviceid, new Date(minuteStart))[0] === 2;
    });
    expect(alertMinutes.length / gsensor.length).toBeGreaterThan(0.85);
  });

  it("records GPS-only minutes (3) after a DiskError", () => {
    const diskErrors = events.filter((event) => event.appdevid === EventCode.DiskError);
    expect(diskErrors.length).toBeGreaterThan(0);
    const gpsOnlyAfter = diskErrors.filter((event) => {
      const nextMinute = (Math.floor(Date.parse(event.eventtime) / MINUTE_MS) + 1) * MINUTE_MS;
      return simulator.control.dailyRecordMap(event.deviceid, new Date(nextMinute))[0] === 3;
    });
    expect(gpsOnlyAfter.length).toBeGreaterThan(0);
  });

  it("keeps Online/Offline events, the online list and the all list in agreement", async () => {
    const all = await post<AllListEntry[]>(simulator, "/gkdevice/alllist", ADMIN);
    const online = await post<AllListEntry[]>(simulator, "/gkdevice/onlinelist", ADMIN);
    expect(online.json.map((entry) => entry.deviceid)).toEqual(
      all.json.filter((entry) => entry.status === 1).map((entry) => entry.deviceid),
    );
    expect(new Set(all.json.map((entry) => entry.status))).toEqual(new Set([0, 1]));
    for (const entry of all.json) {
      const last = lastOf(events, entry.deviceid, [EventCode.Online, EventCode.Offline]);
      if (last)
        expect(last.appdevid, entry.deviceid).toBe(entry.status === 1 ? EventCode.Online : EventCode.Offline);
    }
  });

  it("reports gpsdata.time in milliseconds for most devices and in seconds for some; no gpsdata without nmea", async () => {
    const { json: all } = await post<AllListEntry[]>(simulator, "/gkdevice/alllist", ADMIN);
    const withGps = all.filter((entry) => entry.gpsdata !== undefined);
    const digits = withGps.map((entry) => String(entry.gpsdata?.time).length);
    expect(digits.filter((count) => count === 13).length).toBeGreaterThan(digits.length / 2);
    expect(digits).toContain(10);
    expect(all.some((entry) => entry.gpsdata === undefined && entry.nmea === "")).toBe(true);
    for (const entry of all) expect(entry.gpsdata === undefined).toBe(entry.nmea === "");
  });

  it("describes devices plausibly: ids, plates, drivers, 1..8 channels, tracks near home", () => {
    const devices = simulator.control.devices();
    expect(new Set(devices.map((device) => device.deviceid)).size).toBe(20);
    for (const device of devices) {
      expect(device.deviceid).toMatch(/^\d{10}$/);
      expect(device.vehicleid).toMatch(/^[A-Z]{1,2}-[A-Z]{2} \d{1,4}$/);
      expect(device.channels).toBeGreaterThanOrEqual(1);
      expect(device.channels).toBeLessThanOrEqual(8);
      const track = simulator.control.gpsTrack(device.deviceid);
      if (!device.hasGpsAntenna) {
        expect(track).toEqual([]);
        continue;
      }
      expect(track.length).toBeGreaterThan(100);
      const first = track[0] as (typeof track)[number];
      const farthest = Math.max(
        ...track.map((point) => Math.hypot(point.lat - first.lat, point.lng - first.lng)),
      );
      expect(farthest).toBeLessThan(0.8);
      const gaps = new Set(track.slice(1).map((point, i) => point.time - (track[i] as typeof point).time));
      expect(gaps).toContain(5);
    }
  });
});

describe("determinism", () => {
  it("gives the same fleet, events and tracks for the same seed, and others for another seed", async () => {
    const options = { devices: 5, historyHours: 4, seed: 42 };
    const [first, second, other] = await Promise.all([
      startSmall(options),
      startSmall(options),
      startSmall({ ...options, seed: 43 }),
    ]);
    try {
      expect(second.control.devices()).toEqual(first.control.devices());
      expect(second.control.events()).toEqual(first.control.events());
      const deviceid = first.control.devices()[0]?.deviceid ?? "";
      expect(second.control.gpsTrack(deviceid)).toEqual(first.control.gpsTrack(deviceid));
      expect(first.control.advance(3_600_000)).toEqual(second.control.advance(3_600_000));
      const [firstWire, secondWire] = await Promise.all([queryEvents(first), queryEvents(second)]);
      expect(secondWire.text).toBe(firstWire.text);
      expect(other.control.events()).not.toEqual(first.control.events());
      expect(other.control.devices().map((device) => device.deviceid)).not.toEqual(
        first.control.devices().map((device) => device.deviceid),
      );
    } finally {
      await Promise.all([first.close(), second.close(), other.close()]);
    }
  });

  it("does not depend on how the clock is advanced", async () => {
    const [whole, stepped] = await Promise.all([
      startSmall({ historyHours: 0, seed: 7 }),
      startSmall({ historyHours: 0, seed: 7 }),
    ]);
    try {
      whole.control.advance(3 * 3_600_000);
      // Uneven steps, many of them shorter than the 5-second device tick.
      for (let i = 0; i < 36; i++) stepped.control.advance(5 * MINUTE_MS + (i % 2 === 0 ? 1234 : -1234));
      for (let i = 0; i < 1200; i++) {
        whole.control.advance(3001);
        stepped.control.advance(1000);
        stepped.control.advance(2001);
      }
      expect(stepped.control.now()).toEqual(whole.control.now());
      expect(stepped.control.events()).toEqual(whole.control.events());
      expect(stepped.control.devices()).toEqual(whole.control.devices());
    } finally {
      await Promise.all([whole.close(), stepped.close()]);
    }
  });

  it("keeps serials exact beyond 2^53", async () => {
    const simulator = await startSmall({ serialStart: 9_007_199_254_740_000n });
    try {
      const events = simulator.control.events();
      expect(events[0]?.serialno).toBe(9_007_199_254_740_000n);
      expect(events.at(-1)?.serialno).toBeGreaterThan(9_007_199_254_740_992n);
      const { text } = await queryEvents(simulator, { columns: ["serialno"] });
      expect(text).toBe(JSON.stringify(events.map((event) => ({ serialno: event.serialno.toString() }))));
    } finally {
      await simulator.close();
    }
  });
});
