import { alertBodySchema, renderJson } from "@fleet-alerts/core/alerts";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { AWKWARD_NAMES, eventAt, factsOf, fleetDevice, offline, overspeed } from "../fixtures.js";

const bodyOf = (...args: Parameters<typeof factsOf>) => JSON.parse(renderJson(factsOf(...args)));

describe("JSON body", () => {
  it("carries the structured alert as JSON for other protocols", () => {
    expect(bodyOf({ suppressedBefore: 3 })).toEqual({
      kind: "alert",
      alertId: "east:1000123:gsensor",
      account: "east",
      ruleId: "gsensor",
      severity: "critical",
      eventCode: 16,
      eventName: "GSensor",
      deviceid: "0012345678",
      serialno: "1000123",
      eventtime: "2026-03-29T01:30:00.000Z",
      vehicleid: "TRK-01",
      drivername: "Ada Lovelace",
      // No coordinates with the event, no GPS history: the last fix, 5 s before the event.
      position: {
        lat: 52.52,
        lng: 13.405,
        source: "last-known",
        fixtime: "2026-03-29T01:29:55.000Z",
        url: "https://www.openstreetmap.org/?mlat=52.52000&mlon=13.40500#map=16/52.52000/13.40500",
      },
      speedKmh: 81.6,
      speedSource: "last-known",
      headingDeg: 90,
      speedLimitKmh: null,
      evidence: { channels: [1, 2], secondsBefore: 15, secondsAfter: 15 },
      suppressedBefore: 3,
      confirmedOfflineMinutes: null,
    });
  });

  it("keeps a serial number beyond 2^53 exact, as a string", () => {
    const body = bodyOf({ event: eventAt("2026-03-29T01:30:00Z", { serialno: "9007199254740993" }) });
    expect(body.serialno).toBe("9007199254740993");
  });

  it("keeps the device's texts as the service sent them", () => {
    const [vehicleid, drivername] = AWKWARD_NAMES[2] ?? ["", ""];
    expect(bodyOf({ device: fleetDevice({ vehicleid, drivername }) })).toMatchObject({
      vehicleid,
      drivername,
    });
  });

  it("works without the device's status", () => {
    expect(bodyOf({ device: undefined })).toMatchObject({
      vehicleid: null,
      drivername: null,
      position: null,
      speedKmh: null,
      speedSource: null,
      headingDeg: null,
    });
  });

  it("says where the position came from, and gives speed, heading and limit at the event", () => {
    const body = bodyOf({
      incident: {
        position: { lat: 48.1, lng: 11.5, source: "track", fixMs: Date.parse("2026-03-29T01:30:00Z") },
        motion: { speedKmh: 97.44, source: "track", headingDeg: 181.5 },
        speedLimitKmh: 80,
      },
    });
    expect(body).toMatchObject({
      position: { lat: 48.1, lng: 11.5, source: "track", fixtime: "2026-03-29T01:30:00.000Z" },
      speedKmh: 97.4,
      speedSource: "track",
      headingDeg: 181.5,
      speedLimitKmh: 80,
    });
  });

  it("works with a device that has no GPS fix and no names set", () => {
    expect(
      bodyOf({ device: fleetDevice({ gpsdata: undefined, vehicleid: " ", drivername: "" }) }),
    ).toMatchObject({
      vehicleid: " ",
      drivername: "",
      position: null,
      speedKmh: null,
    });
  });

  it("names an event code outside the spec's table readably", () => {
    const rule = ruleSchema.parse({ id: "odd", events: [77], severity: "info" });
    expect(bodyOf({ rule, event: eventAt("2026-03-29T01:30:00Z", { appdevid: 77 }) })).toMatchObject({
      eventCode: 77,
      eventName: "Unknown event 77",
    });
  });

  it("confirms a sustained Offline", () => {
    const body = bodyOf({
      rule: offline,
      alertId: "east:1000123:offline",
      event: eventAt("2026-03-29T01:30:00Z", { appdevid: 3 }),
      confirmedOfflineMinutes: 10,
    });
    expect(body.confirmedOfflineMinutes).toBe(10);
  });

  it("puts the evidence request in the structured alert, or null", () => {
    expect(bodyOf({ rule: overspeed }).evidence).toEqual({
      channels: [1],
      secondsBefore: 30,
      secondsAfter: 30,
    });
    const rule = ruleSchema.parse({ id: "r", events: [16], severity: "info" });
    expect(bodyOf({ rule }).evidence).toBeNull();
  });
});

describe("alertBodySchema", () => {
  it.each([
    ["the usual case", {}],
    ["no device status", { device: undefined }],
    ["no GPS fix", { device: fleetDevice({ gpsdata: undefined }) }],
    ["no evidence, confirmed offline", { rule: offline, confirmedOfflineMinutes: 10 }],
  ])("parses what renderJson writes, unchanged: %s", (_, overrides) => {
    const body = bodyOf(overrides);
    expect(alertBodySchema.parse(body)).toEqual(body);
  });

  it("drops fields it does not know, so that subscribers survive additions", () => {
    const body = { ...bodyOf(), addedLater: true };
    expect(alertBodySchema.parse(body)).not.toHaveProperty("addedLater");
  });

  it.each([
    ["a serial number as a JSON number", { serialno: 1000123 }],
    ["another kind of message", { kind: "evidence" }],
    ["an unknown severity", { severity: "fatal" }],
    ["a missing field", { eventCode: undefined }],
  ])("refuses %s", (_, change) => {
    expect(alertBodySchema.safeParse({ ...bodyOf(), ...change }).success).toBe(false);
  });
});
