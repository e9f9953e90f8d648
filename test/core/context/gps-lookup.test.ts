import { LOOKUP_SPAN_MAX_MS, lookUpGpsHistories } from "@fleet-alerts/core/context";
import { DeviceCloudTimeoutError } from "@fleet-alerts/core/devicecloud";
import { describe, expect, it } from "vitest";
import { FakeDeviceCloud } from "../../support/fakes/index.js";

const SETTINGS = { speedUnit: "km/h", budgetMs: 150 } as const;
const at = (deviceid: string, iso: string) => ({ deviceid, eventtime: iso });

describe("lookUpGpsHistories", () => {
  it("asks once per device and stretch of its events, plus 30 s either side", async () => {
    const client = new FakeDeviceCloud();
    client.gpsPoints.set("A", [
      { time: 1_767_614_400, lat: 1, lng: 1, speed: 1, dir: 0 },
      { time: Date.parse("2026-01-05T12:08:10Z") / 1000, lat: 2, lng: 2, speed: 2, dir: 0 },
    ]);
    const histories = await lookUpGpsHistories(
      [
        at("A", "2026-01-05T12:00:00.000Z"),
        at("B", "2026-01-05T12:00:10.000Z"),
        // 3 minutes between its window and the first call's: the same call.
        at("A", "2026-01-05T12:04:00.000Z"),
        // Half a second more: a call of its own.
        at("A", "2026-01-05T12:08:00.500Z"),
        at("A", "2026-01-05T11:59:00.000Z"),
      ],
      client,
      SETTINGS,
    );
    expect(client.gpsRequests).toEqual([
      {
        deviceid: "A",
        start: Date.parse("2026-01-05T11:58:30Z") / 1000,
        end: Date.parse("2026-01-05T12:04:30Z") / 1000,
      },
      {
        deviceid: "A",
        start: Date.parse("2026-01-05T12:07:30Z") / 1000,
        end: Date.parse("2026-01-05T12:08:31Z") / 1000,
      },
      {
        deviceid: "B",
        start: Date.parse("2026-01-05T11:59:40Z") / 1000,
        end: Date.parse("2026-01-05T12:00:40Z") / 1000,
      },
    ]);
    // Each event finds the track of its own call.
    const historyAt = (deviceid: string, iso: string) => histories.at(deviceid, Date.parse(iso));
    expect(historyAt("A", "2026-01-05T11:59:00.000Z")).toMatchObject({
      status: "ok",
      track: [{ timeMs: 1_767_614_400_000 }],
    });
    expect(historyAt("A", "2026-01-05T12:04:00.000Z")).toBe(historyAt("A", "2026-01-05T11:59:00.000Z"));
    expect(historyAt("A", "2026-01-05T12:08:00.500Z")).toMatchObject({
      status: "ok",
      track: [{ timeMs: Date.parse("2026-01-05T12:08:10Z") }],
    });
    expect(historyAt("B", "2026-01-05T12:00:10.000Z")).toEqual({ status: "unavailable", reason: "empty" });
    expect(historyAt("B", "2026-01-05T12:30:00.000Z")).toBeUndefined();
  });

  it("cuts a device's stretch of events at 30 minutes a call, however long it goes on", async () => {
    const client = new FakeDeviceCloud();
    // An event every 2 minutes for 3 hours: one stretch by the gap alone.
    const events = Array.from({ length: 91 }, (_, index) =>
      at("A", new Date(Date.parse("2026-01-05T09:00:00Z") + index * 120_000).toISOString()),
    );
    const histories = await lookUpGpsHistories(events, client, { ...SETTINGS, budgetMs: 5_000 });
    expect(client.gpsRequests).toHaveLength(6);
    for (const request of client.gpsRequests)
      expect(Number(request.end) - Number(request.start)).toBeLessThanOrEqual(LOOKUP_SPAN_MAX_MS / 1000 + 61);
    // Every event is still looked up, by the call covering it.
    for (const event of events) expect(histories.at("A", Date.parse(event.eventtime))).toBeDefined();
  });

  it("gives up on a slow device at the budget, and skips the devices not reached by then", async () => {
    const client = new FakeDeviceCloud();
    client.gpsHangs = true;
    const events = Array.from({ length: 12 }, (_, index) => at(`D${index}`, "2026-01-05T12:00:00Z"));
    const histories = await lookUpGpsHistories(events, client, SETTINGS);
    // Eight at a time: the first eight time out, the other four are never asked.
    expect(client.gpsRequests).toHaveLength(8);
    const reasonOf = (deviceid: string) => {
      const history = histories.at(deviceid, Date.parse("2026-01-05T12:00:00Z"));
      return history?.status === "unavailable" ? history.reason : history?.status;
    };
    expect(events.map((event) => reasonOf(event.deviceid))).toEqual([
      ...Array(8).fill("timeout"),
      ...Array(4).fill("over-budget"),
    ]);
  });

  it("names the client's own time-out as a timeout", async () => {
    const client = new FakeDeviceCloud();
    client.gpsError = new DeviceCloudTimeoutError("gpsHistory", 10_000, 3);
    const histories = await lookUpGpsHistories([at("A", "2026-01-05T12:00:00Z")], client, SETTINGS);
    expect(histories.at("A", Date.parse("2026-01-05T12:00:00Z"))).toEqual({
      status: "unavailable",
      reason: "timeout",
    });
  });

  it("asks nothing with a budget of 0", async () => {
    const client = new FakeDeviceCloud();
    const histories = await lookUpGpsHistories([at("A", "2026-01-05T12:00:00Z")], client, {
      ...SETTINGS,
      budgetMs: 0,
    });
    expect(client.gpsRequests).toEqual([]);
    expect(histories.at("A", Date.parse("2026-01-05T12:00:00Z"))).toEqual({
      status: "unavailable",
      reason: "disabled",
    });
  });
});
