import type { AlertBody } from "@fleet-alerts/core/alerts";
import {
  DeviceCloudHttpError,
  DeviceCloudInvalidResponseError,
  type DeviceEvent,
  type FleetDevice,
  type GpsPoint,
} from "@fleet-alerts/core/devicecloud";
import { type AccountSettings, pollAccount } from "@fleet-alerts/core/poller";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { type FakeDeviceCloud, fakePollerDependencies } from "../../support/fakes/index.js";

// The poller against a device cloud in memory whose /api/gps answers well, badly or not at all:
// every alert goes out exactly once, placed by the best source that answered, and says which.

const NOW = Date.parse("2026-01-05T12:00:00Z");
const T = (secondsBeforeNow: number) => NOW - secondsBeforeNow * 1000;
const SETTINGS: AccountSettings = {
  account: "east",
  rules: [
    ruleSchema.parse({ id: "speed", events: [13], severity: "warning" }),
    ruleSchema.parse({ id: "shock", events: [16], severity: "critical" }),
  ],
  fleetTimeZone: "UTC",
  gps: { speedUnit: "km/h", budgetMs: 200 },
};

const EVENTS: DeviceEvent[] = [
  // An OverSpeed without coordinates, with its memo.
  event(1n, "D1", 13, T(60), { vehiclex: null, vehicley: null, memo: "97.0 km/h, limit 80 km/h" }),
  // A G-sensor event that carries its own position, as decimal strings.
  event(2n, "D1", 16, T(40), { vehiclex: "13.45", vehicley: "52.45" }),
  // A device with no fix in its status and no coordinates in the event.
  event(3n, "D2", 16, T(30), { vehiclex: "", vehicley: null }),
  // No rule for code 0: D3 needs no lookup.
  event(4n, "D3", 0, T(20), {}),
];

function event(serialno: bigint, deviceid: string, appdevid: number, ms: number, extra: object): DeviceEvent {
  return { serialno, deviceid, appdevid, eventtime: new Date(ms).toISOString(), ...extra };
}

/** A vehicle heading north at 90 km/h (25 m/s), a point every 5 s from 2 min before NOW. */
function track(deviceid: string, lng: number): GpsPoint[] {
  return Array.from({ length: 25 }, (_, index) => ({
    time: Math.round(T(120) / 1000) + index * 5,
    lat: 52.4 + (index * 5 * 25) / 111_195,
    lng,
    speed: index === 12 ? 99 : 90,
    dir: 0,
    deviceid,
  }));
}

function world(answer: (client: FakeDeviceCloud) => void) {
  const fakes = fakePollerDependencies(NOW);
  const { client } = fakes.deps;
  client.events.push(...EVENTS);
  client.devices = [
    fleetDevice("D1", { time: T(-600), lat: 52.9, lng: 13.9, speedInKmh: 0, trackingAngle: 0 }),
    fleetDevice("D2", undefined),
  ];
  client.gpsPoints.set("D1", track("D1", 13.4));
  client.gpsPoints.set("D2", track("D2", 13.5));
  answer(client);
  void fakes.deps.cursors.advance("east", undefined, 0n, NOW, 0);
  return fakes;
}

function fleetDevice(deviceid: string, gpsdata: FleetDevice["gpsdata"]): FleetDevice {
  return {
    deviceid,
    status: 1,
    nmea: "",
    updatetime: new Date(NOW).toISOString(),
    vehicleid: deviceid,
    drivername: "",
    channel: 1,
    gpsdata,
  };
}

async function pollOnce(answer: (client: FakeDeviceCloud) => void) {
  const fakes = world(answer);
  const summary = await pollAccount(SETTINGS, fakes.deps, { deadlineMs: Number.POSITIVE_INFINITY });
  const bodies = fakes.deps.publisher.accepted.map((alert) => JSON.parse(alert.message.default) as AlertBody);
  const placed = Object.fromEntries(
    bodies.map((body) => [body.serialno, body.position?.source ?? "unknown"]),
  );
  return { ...fakes, summary, bodies, placed };
}

describe("alert positions when the GPS history fails", () => {
  it("places each alert at its event, from the track when the event has no coordinates", async () => {
    const { placed, bodies, summary, deps } = await pollOnce(() => undefined);
    expect(placed).toEqual({ "1": "track", "2": "event", "3": "track" });
    const overSpeed = bodies.find((body) => body.serialno === "1");
    // 60 s before NOW is the 12th point, the fastest: its speed, and the limit from the memo.
    expect(overSpeed).toMatchObject({ speedKmh: 99, speedSource: "track", speedLimitKmh: 80, headingDeg: 0 });
    expect(overSpeed?.position?.lat).toBeCloseTo(52.4 + (60 * 25) / 111_195, 6);
    expect(deps.client.gpsRequests.map((request) => request.deviceid).sort()).toEqual(["D1", "D2"]);
    expect(summary).toMatchObject({
      gpsLookups: 2,
      gpsLookupsFailed: 0,
      positionsFromTrack: 2,
      positionsFromEvent: 1,
    });
  });

  const failures: [string, (client: FakeDeviceCloud) => void, string][] = [
    [
      "an HTTP 500",
      (client) => {
        client.gpsError = new DeviceCloudHttpError("gpsHistory", 500, 3);
      },
      "failed",
    ],
    [
      "no answer within the budget",
      (client) => {
        client.gpsHangs = true;
      },
      "timeout",
    ],
    ["an empty array", (client) => client.gpsPoints.clear(), "empty"],
    [
      "a malformed point",
      (client) => {
        client.gpsError = new DeviceCloudInvalidResponseError(
          "gpsHistory",
          "response does not match the spec",
          [{ path: "3.time", message: "Invalid input: expected number, received undefined" }],
        );
      },
      "malformed",
    ],
  ];

  it.each(failures)(
    "publishes every alert once after %s, placed by the next best source",
    async (_, answer, reason) => {
      const { placed, bodies, summary, observations, deps } = await pollOnce(answer);
      expect(deps.publisher.acceptedIds()).toEqual(["east:1:speed", "east:2:shock", "east:3:shock"]);
      // D1's last fix is 10 min after the OverSpeed; D2 has none.
      expect(placed).toEqual({ "1": "last-known", "2": "event", "3": "unknown" });
      expect(bodies.find((body) => body.serialno === "1")).toMatchObject({
        speedKmh: 97,
        speedSource: "memo",
      });
      expect(bodies.find((body) => body.serialno === "3")?.speedKmh).toBeNull();
      expect(summary).toMatchObject({
        outcome: "caught-up",
        cursor: "4",
        gpsLookups: 2,
        gpsLookupsFailed: 2,
      });
      expect(summary).toMatchObject({ positionsLastKnown: 1, positionsFromEvent: 1, positionsUnknown: 1 });
      const unavailable = observations.filter(
        (observation) => observation.type === "gps-history-unavailable",
      );
      expect(unavailable).toEqual([
        { type: "gps-history-unavailable", account: "east", deviceid: "D1", reason, alerts: 2 },
        { type: "gps-history-unavailable", account: "east", deviceid: "D2", reason, alerts: 1 },
      ]);
      expect(
        deps.publisher.accepted.find((alert) => alert.alertId === "east:3:shock")?.message.email,
      ).toContain("Position:   unknown (the event had no coordinates, ");
      // A second run finds nothing new to publish.
      await pollAccount(SETTINGS, deps, { deadlineMs: Number.POSITIVE_INFINITY });
      expect(deps.publisher.acceptedIds()).toHaveLength(3);
    },
  );

  it("falls back to the last fix when the track's points are all far from the event", async () => {
    // One point, 50 s after the OverSpeed: in the range asked, but too far to place it.
    const far = (client: FakeDeviceCloud) =>
      client.gpsPoints.set(
        "D1",
        track("D1", 13.4).filter((point) => point.time === Math.round(T(10) / 1000)),
      );
    const { placed, summary } = await pollOnce(far);
    expect(placed["1"]).toBe("last-known");
    expect(summary.gpsLookupsFailed).toBe(0);
  });

  it("never calls /api/gps when the account's budget is 0", async () => {
    const fakes = world(() => undefined);
    const settings = { ...SETTINGS, gps: { ...SETTINGS.gps, budgetMs: 0 } };
    const summary = await pollAccount(settings, fakes.deps, { deadlineMs: Number.POSITIVE_INFINITY });
    expect(fakes.deps.client.gpsRequests).toEqual([]);
    expect(summary).toMatchObject({
      gpsLookups: 0,
      positionsFromEvent: 1,
      positionsLastKnown: 1,
      positionsUnknown: 1,
    });
  });
});

describe("the cost of positions", () => {
  it("makes one /api/gps call per device and stretch of its alerts in a chunk", async () => {
    const fakes = fakePollerDependencies(NOW);
    const { client } = fakes.deps;
    // 700 alerting events on 7 devices, each device every 21 s: two chunks, of 500 and 200, each
    // device's alerts within the 30 minutes one call covers at most (LOOKUP_SPAN_MAX_MS).
    const events = Array.from({ length: 700 }, (_, index) =>
      event(BigInt(index + 1), `D${index % 7}`, 16, T(8000 - index * 3), {}),
    );
    // D0 goes quiet for 10 minutes in the first chunk: its alerts on either side need calls of their own.
    const quiet = (alert: DeviceEvent) =>
      alert.deviceid === "D0" && Number(alert.serialno) > 200 && Number(alert.serialno) <= 400;
    client.events.push(...events.filter((alert) => !quiet(alert)));
    void fakes.deps.cursors.advance("east", undefined, 0n, NOW, 0);
    const summary = await pollAccount(SETTINGS, fakes.deps, { deadlineMs: Number.POSITIVE_INFINITY });

    const range = (deviceid: string, alerts: readonly DeviceEvent[]) => {
      const times = alerts.map((alert) => Date.parse(alert.eventtime));
      return {
        deviceid,
        start: Math.floor((Math.min(...times) - 30_000) / 1000),
        end: Math.ceil((Math.max(...times) + 30_000) / 1000),
      };
    };
    const sent = events.filter((alert) => !quiet(alert));
    const chunks = [sent.slice(0, 500), sent.slice(500)];
    const expected = chunks.flatMap((chunk) =>
      [...new Set(chunk.map((alert) => alert.deviceid))].flatMap((deviceid) => {
        const ofDevice = chunk.filter((alert) => alert.deviceid === deviceid);
        if (deviceid !== "D0" || chunk !== chunks[0]) return [range(deviceid, ofDevice)];
        return [
          range(
            deviceid,
            ofDevice.filter((alert) => Number(alert.serialno) <= 200),
          ),
          range(
            deviceid,
            ofDevice.filter((alert) => Number(alert.serialno) > 400),
          ),
        ];
      }),
    );
    const order = (requests: readonly object[]) => requests.map((request) => JSON.stringify(request)).sort();
    expect(order(client.gpsRequests)).toEqual(order(expected));
    // One call per device per chunk, and one more for D0's second stretch: 15 for 2 chunks of 7 devices.
    expect(client.gpsRequests).toHaveLength(15);
    expect(summary).toMatchObject({ gpsLookups: 15, alertsPublished: sent.length });
  });
});
