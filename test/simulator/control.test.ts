import { setTimeout as sleep } from "node:timers/promises";
import {
  type AdvanceReport,
  EventCode,
  type Simulator,
  start,
  type WireEvent,
} from "@fleet-alerts/simulator";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO, post, queryEvents, startSmall } from "./helpers.js";

const HOUR_MS = 3_600_000;
const onlineIds = async (simulator: Simulator) =>
  (await post<{ deviceid: string }[]>(simulator, "/gkdevice/onlinelist", DEMO)).json.map(
    (entry) => entry.deviceid,
  );

describe("simulator control", () => {
  let simulator: Simulator;
  let deviceid: string;

  beforeEach(async () => {
    simulator = await startSmall({ devices: 4, historyHours: 2, seed: 3 });
    deviceid = simulator.control.devices()[1]?.deviceid ?? "";
  });
  afterEach(() => simulator.close());

  it("starts the clock at 2026-01-05T00:00:00Z and moves it only on advance (speed 0)", async () => {
    expect(simulator.control.now()).toEqual(new Date("2026-01-05T00:00:00Z"));
    await sleep(30);
    expect(simulator.control.now()).toEqual(new Date("2026-01-05T00:00:00Z"));
    const reports: AdvanceReport[] = [];
    const unsubscribe = simulator.control.onAdvance((report) => reports.push(report));
    const before = simulator.control.events().length;
    const logged = simulator.control.advance(HOUR_MS);
    unsubscribe();
    simulator.control.advance(1000);
    expect(simulator.control.now()).toEqual(new Date("2026-01-05T01:00:01Z"));
    expect(logged.length).toBeGreaterThan(5);
    expect(simulator.control.events().slice(before, before + logged.length)).toEqual(logged);
    for (const event of logged) {
      expect(
        event.updatetime > "2026-01-05T00:00:00.000Z" && event.updatetime <= "2026-01-05T01:00:00.000Z",
      ).toBe(true);
    }
    expect(reports).toEqual([
      { from: new Date("2026-01-05T00:00:00Z"), to: new Date("2026-01-05T01:00:00Z"), events: logged },
    ]);
  });

  it("injects any event, unknown codes and devices included, with field overrides", async () => {
    const injected = simulator.control.injectEvent({
      appdevid: 250,
      deviceid: "not-in-the-fleet",
      type: 9,
      memo: "hello",
      fenceid: 4,
      loopdata: "clip",
      downloadtype: 1,
      eventtime: new Date("2026-01-04T23:00:00.123Z"),
    });
    expect(injected.serialno).toBeGreaterThan(simulator.control.events().at(-2)?.serialno ?? 0n);
    const { json } = await queryEvents(simulator, { serialno: String(injected.serialno) });
    expect(json).toEqual([
      {
        serialno: String(injected.serialno),
        deviceid: "not-in-the-fleet",
        type: 9,
        eventtime: "2026-01-04T23:00:00.123Z",
        eventtimeutc: "2026-01-04T23:00:00.123Z",
        updatetime: "2026-01-05T00:00:00.000Z",
        download: 0,
        try: 0,
        fenceid: 4,
        fencename: null,
        radius: null,
        centerx: null,
        centery: null,
        vehiclex: null,
        vehicley: null,
        downloadtype: 1,
        checkstatus: null,
        memo: "hello",
        loopdata: "clip",
        appdevid: 250,
      } satisfies WireEvent,
    ]);
  });

  it("setOnline(false) logs Offline, removes the device from the online list and holds it there", async () => {
    simulator.control.setOnline(deviceid, true);
    expect(await onlineIds(simulator)).toContain(deviceid);
    const offline = simulator.control.setOnline(deviceid, false);
    expect(offline).toMatchObject({
      deviceid,
      appdevid: EventCode.Offline,
      updatetime: "2026-01-05T00:00:00.000Z",
    });
    expect(await onlineIds(simulator)).not.toContain(deviceid);
    const logged = simulator.control.advance(6 * HOUR_MS);
    expect(await onlineIds(simulator)).not.toContain(deviceid);
    expect(logged.filter((event) => event.deviceid === deviceid)).toEqual([]);
    const { json: all } = await post<{ deviceid: string; status: number }[]>(
      simulator,
      "/gkdevice/alllist",
      DEMO,
    );
    expect(all.find((entry) => entry.deviceid === deviceid)?.status).toBe(0);

    simulator.control.release(deviceid);
    const later = simulator.control.advance(6 * HOUR_MS);
    expect(later.some((event) => event.deviceid === deviceid && event.appdevid === EventCode.Online)).toBe(
      true,
    );
  });

  it("setOnline(true) logs Online and keeps the device connected while held", async () => {
    simulator.control.setOnline(deviceid, false, { logEvent: false });
    const before = simulator.control.events().length;
    const online = simulator.control.setOnline(deviceid, true);
    expect(online).toMatchObject({ deviceid, appdevid: EventCode.Online });
    expect(simulator.control.events().length).toBe(before + 1);
    const logged = simulator.control.advance(8 * HOUR_MS);
    expect(await onlineIds(simulator)).toContain(deviceid);
    expect(logged.some((event) => event.deviceid === deviceid && event.appdevid === EventCode.Offline)).toBe(
      false,
    );
    expect(logged.some((event) => event.deviceid === deviceid)).toBe(true);
    expect(simulator.control.devices()[1]).toMatchObject({ online: true, pinned: "online" });
  });

  it("setOnline without hold lets the simulation carry on", () => {
    expect(simulator.control.setOnline(deviceid, false, { hold: false, logEvent: false })).toBeUndefined();
    expect(simulator.control.devices()[1]).toMatchObject({ online: false, pinned: undefined });
    expect(() => simulator.control.setOnline("nope", true)).toThrow(/unknown device/);
  });

  it("setRecording drives the daily map, the record list and playback availability together", async () => {
    const from = new Date("2026-01-04T10:00:00Z");
    simulator.control.setRecording(deviceid, from, new Date("2026-01-04T11:00:00Z"), 0);
    simulator.control.setRecording(
      deviceid,
      new Date("2026-01-04T10:10:00Z"),
      new Date("2026-01-04T10:12:30Z"),
      2,
    );
    const { json: map } = await post<number[]>(simulator, "/api/record", {
      ...DEMO,
      deviceid,
      date: from.getTime() / 1000,
    });
    expect(map.slice(0, 60)).toEqual(
      Array.from({ length: 60 }, (_, minute) => (minute >= 10 && minute < 13 ? 2 : 0)),
    );
    const { json: list } = await post<{ start: number; end: number; type: number }[]>(
      simulator,
      "/api/recordlist",
      {
        ...DEMO,
        deviceid,
      },
    );
    const inHour = list.filter(
      (entry) => entry.start >= from.getTime() / 1000 && entry.end <= from.getTime() / 1000 + 3600,
    );
    expect(inHour).toEqual([
      { start: from.getTime() / 1000 + 600, end: from.getTime() / 1000 + 780, type: 1 },
    ]);
    expect(() => simulator.control.setRecording(deviceid, from, from, 4 as 0)).toThrow(/0..3/);
  });

  it("clock speed > 0 moves the virtual clock in real time, and close() stops it", async () => {
    const running = await start({ devices: 2, historyHours: 0, clock: { speed: 60_000 } });
    try {
      await sleep(250);
      const moved = running.control.now().getTime() - Date.parse("2026-01-05T00:00:00Z");
      expect(moved).toBeGreaterThan(60_000);
    } finally {
      await running.close();
    }
    const stopped = running.control.now().getTime();
    await sleep(150);
    expect(running.control.now().getTime()).toBe(stopped);
  });

  it("rejects invalid options", async () => {
    await expect(startSmall({ devices: 0 })).rejects.toThrow(/devices/);
    await expect(startSmall({ serialStart: 0n })).rejects.toThrow(/serialStart/);
    await expect(startSmall({ eventQuery: { duplicateRate: 2 } })).rejects.toThrow(/duplicateRate/);
    await expect(startSmall({ bitrateBitsPerSecond: [] })).rejects.toThrow(/bitrate/);
    await expect(startSmall({ accounts: [] })).rejects.toThrow(/accounts/);
  });
});
