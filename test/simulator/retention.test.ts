import { type Simulator, start } from "@fleet-alerts/simulator";
import { afterEach, describe, expect, it } from "vitest";
import { playbackAnswer, recordList, recordMap } from "./helpers.js";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const at = (iso: string) => new Date(iso);

describe("SD card retention", () => {
  let simulator: Simulator | undefined;
  afterEach(() => simulator?.close());

  it("gives each device a seeded retention of 3 to 14 whole days, the same for the same seed", async () => {
    simulator = await start({ seed: 4, devices: 30, historyHours: 0 });
    const days = simulator.control.devices().map((device) => device.retentionDays);
    for (const value of days) {
      expect(Number.isInteger(value) && value >= 3 && value <= 14).toBe(true);
    }
    // A spread, not one card size for the whole fleet.
    expect(new Set(days).size).toBeGreaterThanOrEqual(4);
    const again = await start({ seed: 4, devices: 30, historyHours: 0 });
    expect(again.control.devices().map((device) => device.retentionDays)).toEqual(days);
    await again.close();
  });

  it("takes one retention for the fleet or one per device, and refuses what is not whole days", async () => {
    simulator = await start({ devices: 3, historyHours: 0, retentionDays: 5 });
    expect(simulator.control.devices().map((device) => device.retentionDays)).toEqual([5, 5, 5]);
    const plain = await start({ devices: 3, historyHours: 0 });
    const seeded = plain.control.devices()[1]?.retentionDays;
    await plain.close();
    const mixed = await start({ devices: 3, historyHours: 0, retentionDays: [2, undefined] });
    expect(mixed.control.devices().map((device) => device.retentionDays)).toEqual([
      2,
      seeded,
      expect.any(Number),
    ]);
    await mixed.close();
    for (const retentionDays of [0, 2.5, 366, [1, 2, 3, 4]]) {
      await expect(start({ devices: 3, historyHours: 0, retentionDays })).rejects.toThrow(/retentionDays/);
    }
    const deviceid = simulator.control.devices()[0]?.deviceid as string;
    expect(() => simulator?.control.setRetentionDays(deviceid, 0)).toThrow(/setRetentionDays/);
    expect(() => simulator?.control.setRetentionDays("nope", 3)).toThrow(/unknown device/);
  });

  it("shows nothing before the horizon: record map, record list and playback agree, and the horizon moves with the clock", async () => {
    simulator = await start({ devices: 1, historyHours: 6, retentionDays: 3 });
    const { control } = simulator;
    const deviceid = control.devices()[0]?.deviceid as string;
    // Recorded two days before the start (a day that will be wholly overwritten) and the evening before.
    control.setRecording(deviceid, at("2026-01-03T10:00:00Z"), at("2026-01-03T11:00:00Z"), 1);
    control.setRecording(deviceid, at("2026-01-04T20:00:00Z"), at("2026-01-04T22:00:00Z"), 1);
    expect((await recordMap(simulator, deviceid, at("2026-01-03T00:00:00Z"))).slice(600, 660)).toEqual(
      new Array(60).fill(1),
    );

    // Now 2026-01-07T21:00Z: three days back is 21:00 on the evening recorded.
    control.advance(2 * DAY_MS + 21 * HOUR_MS);
    expect(control.cardHorizon(deviceid)).toEqual(at("2026-01-04T21:00:00Z"));
    expect(await recordMap(simulator, deviceid, at("2026-01-03T00:00:00Z"))).toEqual(new Array(1440).fill(0));
    const evening = (await recordMap(simulator, deviceid, at("2026-01-04T00:00:00Z"))).slice(
      20 * 60,
      22 * 60,
    );
    expect(evening).toEqual([...new Array(60).fill(0), ...new Array(60).fill(1)]);

    const horizonSeconds = at("2026-01-04T21:00:00Z").getTime() / 1000;
    const list = await recordList(simulator, deviceid);
    expect(list.every((entry) => entry.start >= horizonSeconds)).toBe(true);
    // The file the horizon cut starts at it.
    expect(list[0]?.start).toBe(horizonSeconds);

    expect(await playbackAnswer(simulator, deviceid, at("2026-01-04T20:30:00Z"), 30)).toEqual({
      status: 404,
      error: "no_recording",
    });
    expect(await playbackAnswer(simulator, deviceid, at("2026-01-04T21:00:00Z"))).toEqual({ status: 200 });

    control.advance(30 * MINUTE_MS);
    const later = (await recordMap(simulator, deviceid, at("2026-01-04T00:00:00Z"))).slice(20 * 60, 22 * 60);
    expect(later).toEqual([...new Array(90).fill(0), ...new Array(30).fill(1)]);
    expect(await playbackAnswer(simulator, deviceid, at("2026-01-04T21:00:00Z"))).toMatchObject({
      status: 404,
    });
  });

  it("overwrites at once for a shorter retention, and a longer one brings nothing back", async () => {
    simulator = await start({ devices: 1, historyHours: 6, retentionDays: 3 });
    const { control } = simulator;
    const deviceid = control.devices()[0]?.deviceid as string;
    control.setRecording(deviceid, at("2026-01-04T20:00:00Z"), at("2026-01-04T21:00:00Z"), 1);
    control.setRetentionDays(deviceid, 1);
    expect(control.devices()[0]?.retentionDays).toBe(1);
    expect(control.cardHorizon(deviceid)).toEqual(at("2026-01-04T00:00:00Z"));
    control.advance(21 * HOUR_MS);
    expect(await playbackAnswer(simulator, deviceid, at("2026-01-04T20:00:00Z"))).toMatchObject({
      status: 404,
    });

    control.setRetentionDays(deviceid, 14);
    expect(control.cardHorizon(deviceid)).toEqual(at("2026-01-04T21:00:00Z"));
    expect(await playbackAnswer(simulator, deviceid, at("2026-01-04T20:00:00Z"))).toMatchObject({
      status: 404,
    });
  });
});
