import { gatherFacts } from "@fleet-alerts/core/alerts";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { context, eventAt, factsOf, fleetDevice, gsensor, INCIDENT_AT_EVENT, offline } from "./fixtures.js";

describe("alert facts", () => {
  it("gathers what every channel reads", () => {
    const { clock, ...facts } = factsOf({ suppressedBefore: 3 });
    expect(clock.short(facts.eventMs)).toBe("29 Mar 03:30 UTC+2");
    expect(facts).toEqual({
      alertId: "east:1000123:gsensor",
      account: "east",
      ruleId: "gsensor",
      ruleDescription: "G-sensor triggered: harsh braking, impact or collision",
      severity: "critical",
      cooldownSeconds: gsensor.cooldownSeconds,
      evidence: { channels: [1, 2], secondsBefore: 15, secondsAfter: 15 },
      eventCode: 16,
      eventName: "GSensor",
      headline: "GSensor",
      serialno: "1000123",
      eventMs: Date.parse("2026-03-29T01:30:00Z"),
      deviceid: "0012345678",
      vehicle: "TRK-01",
      driver: "Ada Lovelace",
      deviceStatusKnown: true,
      position: {
        lat: 52.52,
        lng: 13.405,
        source: "last-known",
        url: "https://www.openstreetmap.org/?mlat=52.52000&mlon=13.40500#map=16/52.52000/13.40500",
        fixMs: Date.parse("2026-03-29T01:29:55Z"),
      },
      positionGap: undefined,
      // The last fix was 5 s before the event: its speed is the speed at the event.
      motion: { speedKmh: 81.6, headingDeg: 90, source: "last-known" },
      speedLimitKmh: undefined,
      suppressedBefore: 3,
      confirmedOfflineMinutes: undefined,
      asSent: {
        deviceid: "0012345678",
        eventtime: "2026-03-29T01:30:00.000Z",
        vehicleid: "TRK-01",
        drivername: "Ada Lovelace",
      },
    });
  });

  it("makes the device's texts single-line for people and keeps them as sent for machines", () => {
    const facts = gatherFacts(
      context({
        event: eventAt("2026-03-29T01:30:00Z", { deviceid: " dev\u2028ice " }),
        device: fleetDevice({ vehicleid: "TRK\n01\t", drivername: "Ada\u2028Lovelace\u0007" }),
        rule: ruleSchema.parse({ id: "r", events: [16], severity: "info", description: "harsh\r\nbraking" }),
      }),
    );
    expect(facts).toMatchObject({ deviceid: "dev ice", vehicle: "TRK 01", driver: "Ada Lovelace" });
    expect(facts.ruleDescription).toBe("harsh braking");
    expect(facts.asSent).toMatchObject({
      deviceid: " dev\u2028ice ",
      vehicleid: "TRK\n01\t",
      drivername: "Ada\u2028Lovelace\u0007",
    });
  });

  it("leaves out empty names", () => {
    const facts = factsOf({ device: fleetDevice({ vehicleid: " ", drivername: "" }) });
    expect(facts.vehicle).toBeUndefined();
    expect(facts.driver).toBeUndefined();
  });

  it.each([
    [
      "no device status",
      undefined,
      false,
      "the event had no coordinates, GPS history lookups are off, and no device status was available",
    ],
    [
      "a device without a GPS fix",
      fleetDevice({ gpsdata: undefined }),
      true,
      "the event had no coordinates, GPS history lookups are off, and the device reported no GPS fix",
    ],
  ])("says why the position is unknown: %s", (_, device, deviceStatusKnown, positionGap) => {
    const facts = factsOf({ device });
    expect(facts).toMatchObject({ deviceStatusKnown, positionGap });
    expect(facts.position).toBeUndefined();
  });

  it("takes position, speed and heading from the incident context, not from the device's status", () => {
    const facts = factsOf({ incident: INCIDENT_AT_EVENT, device: fleetDevice({ gpsdata: undefined }) });
    expect(facts.position).toMatchObject({ lat: 52.52, lng: 13.405, source: "event" });
    expect(facts.motion).toEqual({ speedKmh: 81.6, headingDeg: 90, source: "track" });
  });

  it("adds the confirmed offline duration to the headline", () => {
    const facts = factsOf({
      rule: offline,
      event: eventAt("2026-03-29T01:30:00Z", { appdevid: 3 }),
      confirmedOfflineMinutes: 10,
    });
    expect(facts).toMatchObject({
      eventName: "Offline",
      headline: "Offline 10+ min",
      confirmedOfflineMinutes: 10,
    });
  });

  it("refuses an unknown time zone", () => {
    expect(() => factsOf({ fleetTimeZone: "Mars/Olympus_Mons" })).toThrow(RangeError);
  });
});
