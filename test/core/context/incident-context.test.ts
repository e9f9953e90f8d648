import { type GpsHistory, resolveIncidentContext, trackOf } from "@fleet-alerts/core/context";
import { deviceEventSchema, type FleetDevice } from "@fleet-alerts/core/devicecloud";
import { describe, expect, it } from "vitest";

const EVENT_MS = Date.parse("2026-01-05T12:00:00Z");
const unavailable: GpsHistory = { status: "unavailable", reason: "timeout" };
// Eastbound at 60 km/h through the event, a point every 5 s.
const track: GpsHistory = {
  status: "ok",
  track: trackOf(
    [-10, -5, 0, 5, 10].map((seconds) => ({
      time: EVENT_MS / 1000 + seconds,
      lat: 50,
      lng: 8 + seconds * 0.0001,
      speed: 60 + seconds,
      dir: 90,
    })),
    "km/h",
  ),
};
const lastFix = (secondsAfterEvent: number): FleetDevice => ({
  deviceid: "D1",
  status: 1,
  nmea: "",
  updatetime: "2026-01-05T12:10:00.000Z",
  vehicleid: "V",
  drivername: "",
  channel: 1,
  gpsdata: { time: EVENT_MS + secondsAfterEvent * 1000, lat: 51, lng: 9, speedInKmh: 33, trackingAngle: 270 },
});

function resolve(fields: object, history: GpsHistory, device?: FleetDevice, limit?: number) {
  const event = deviceEventSchema.parse({
    serialno: "1",
    deviceid: "D1",
    appdevid: 16,
    eventtime: new Date(EVENT_MS + 2_500).toISOString(),
    ...fields,
  });
  return resolveIncidentContext({ event, rule: { speedLimitKmh: limit }, device, history });
}

describe("resolveIncidentContext", () => {
  it("prefers the event's own coordinates, with speed and heading from the track", () => {
    expect(resolve({ vehiclex: 8.1, vehicley: 50.1 }, track, lastFix(600))).toEqual({
      position: { lat: 50.1, lng: 8.1, source: "event", fixMs: EVENT_MS + 2_500 },
      motion: { speedKmh: 60, headingDeg: 90, source: "track" },
    });
  });

  it("interpolates the track at the event time when the event has no coordinates", () => {
    const context = resolve({ vehiclex: null, vehicley: null }, track, lastFix(600));
    expect(context.position).toMatchObject({ lat: 50, source: "track", method: "interpolated" });
    expect(context.position?.lng).toBeCloseTo(8.00025, 8);
  });

  it("falls back to the last fix, and takes no speed from a fix 10 min away", () => {
    expect(resolve({}, unavailable, lastFix(600))).toEqual({
      position: { lat: 51, lng: 9, source: "last-known", fixMs: EVENT_MS + 600_000 },
    });
  });

  it("takes the last fix's speed when the fix was taken at the event", () => {
    expect(resolve({}, unavailable, lastFix(10)).motion).toEqual({
      speedKmh: 33,
      headingDeg: 270,
      source: "last-known",
    });
  });

  it("says why the position is unknown", () => {
    expect(resolve({}, unavailable, undefined)).toEqual({
      positionGap:
        "the event had no coordinates, the GPS history did not answer in time, and no device status was available",
    });
    expect(resolve({}, { status: "ok", track: [] }, { ...lastFix(0), gpsdata: undefined }).positionGap).toBe(
      "the event had no coordinates, the GPS history had no point near the event, and the device reported no GPS fix",
    );
  });

  it("for an OverSpeed: the fastest sample near the event, the memo's limit before the rule's", () => {
    const overSpeed = { appdevid: 13, memo: "72 km/h, limit 50 km/h" };
    expect(resolve(overSpeed, track, undefined, 60)).toMatchObject({
      motion: { speedKmh: 65, source: "track" },
      speedLimitKmh: 50,
    });
    expect(resolve({ ...overSpeed, memo: null }, unavailable, undefined, 60)).toEqual({
      positionGap: expect.any(String),
      speedLimitKmh: 60,
    });
    expect(resolve(overSpeed, unavailable, undefined, 60).motion).toEqual({ speedKmh: 72, source: "memo" });
  });

  it("quotes no limit for other events", () => {
    expect(resolve({}, track, undefined, 60).speedLimitKmh).toBeUndefined();
  });
});
