import { renderSms } from "@fleet-alerts/core/alerts";
import type { IncidentContext } from "@fleet-alerts/core/context";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import {
  AWKWARD_NAMES,
  awkwardTitle,
  eventAt,
  factsAt,
  factsOf,
  fleetDevice,
  GSM_SAFE_ASCII,
  INCIDENT_AT_EVENT,
  offline,
  overspeed,
} from "../fixtures.js";

/** Facts at the event's own place, with the speed from the GPS track. */
const atEvent = (overrides: Parameters<typeof factsOf>[0] = {}) =>
  factsOf({ incident: INCIDENT_AT_EVENT, ...overrides });

describe("SMS: the usual case", () => {
  it("has an SMS with the essentials first and the extras after", () => {
    expect(renderSms(atEvent({ suppressedBefore: 3 }))).toBe(
      "CRITICAL GSensor - TRK-01 (Ada Lovelace) 29 Mar 03:30 UTC+2, at 52.5200,13.4050, 82 km/h, 3 repeats suppressed",
    );
  });
});

describe("SMS: one GSM-7 segment", () => {
  for (const names of AWKWARD_NAMES) {
    const [vehicleid, drivername] = names;
    it(`fits ${awkwardTitle(names)}`, () => {
      const sms = renderSms(
        atEvent({ device: fleetDevice({ vehicleid, drivername }), suppressedBefore: 12 }),
      );
      expect(sms).toMatch(GSM_SAFE_ASCII);
      expect(sms.length).toBeLessThanOrEqual(160);
      // The essentials survive whatever the names: severity and event first, local time and position.
      expect(sms).toMatch(/^CRITICAL GSensor - /);
      expect(sms).toContain(" 29 Mar 03:30 UTC+2, at 52.5200,13.4050");
    });
  }

  it("transliterates accented Latin letters and typographic punctuation", () => {
    const sms = renderSms(
      atEvent({ device: fleetDevice({ vehicleid: "Nürnberg–Süd", drivername: "Zoë „Łukasiewicz“ Straße" }) }),
    );
    expect(sms).toMatch(/^CRITICAL GSensor - Nurnberg-Sud \(Zoe "Lukasiewicz" Strasse\) 29 Mar/);
  });

  it("falls back to the device id when no letter of the vehicle's name survives, and drops such a driver", () => {
    const sms = renderSms(atEvent({ device: fleetDevice({ vehicleid: "Фура", drivername: "Иван" }) }));
    expect(sms).toMatch(/^CRITICAL GSensor - device 0012345678 29 Mar 03:30 UTC\+2, /);
  });

  it("cuts long names with an ellipsis, sharing the room between vehicle and driver", () => {
    const sms = renderSms(
      atEvent({ device: fleetDevice({ vehicleid: "V".repeat(500), drivername: "D".repeat(500) }) }),
    );
    expect(sms).toHaveLength(160);
    expect(sms).toMatch(
      /^CRITICAL GSensor - V+\.\.\. \(D+\.\.\.\) 29 Mar 03:30 UTC\+2, at 52\.5200,13\.4050$/,
    );
  });

  it("leaves out extras that do not fit whole, rather than cutting them", () => {
    const vehicleid = "V".repeat(78); // leaves room for the speed but not for the repeats
    const sms = renderSms(
      atEvent({ device: fleetDevice({ vehicleid, drivername: "" }), suppressedBefore: 3 }),
    );
    expect(sms).toBe(`CRITICAL GSensor - ${vehicleid} 29 Mar 03:30 UTC+2, at 52.5200,13.4050, 82 km/h`);
  });
});

describe("SMS: time zones", () => {
  it("renders both sides of the spring-forward DST change in Europe/Berlin", () => {
    expect(renderSms(factsAt("2026-03-29T00:59:59Z", "Europe/Berlin"))).toContain(" 29 Mar 01:59 UTC+1, ");
    expect(renderSms(factsAt("2026-03-29T01:00:00Z", "Europe/Berlin"))).toContain(" 29 Mar 03:00 UTC+2, ");
  });

  it("renders half-hour offsets, east and west, including the change of date", () => {
    expect(renderSms(factsAt("2026-01-05T20:00:00Z", "Asia/Kolkata"))).toContain(" 6 Jan 01:30 UTC+5:30, ");
    expect(renderSms(factsAt("2026-01-05T02:00:00Z", "America/St_Johns"))).toContain(
      " 4 Jan 22:30 UTC-3:30, ",
    );
  });

  it("says UTC plainly for the UTC zone", () => {
    expect(renderSms(factsAt("2026-07-01T12:00:00Z", "UTC"))).toContain(" 1 Jul 12:00 UTC, ");
  });
});

describe("SMS: missing enrichment", () => {
  it("works without the device's status", () => {
    expect(renderSms(factsOf({ device: undefined }))).toBe(
      "CRITICAL GSensor - device 0012345678 29 Mar 03:30 UTC+2, position unknown",
    );
  });

  it("works with a device that has no GPS fix and no names set", () => {
    const facts = factsOf({ device: fleetDevice({ gpsdata: undefined, vehicleid: " ", drivername: "" }) });
    expect(renderSms(facts)).toContain(", position unknown");
  });

  it("says a position is only the last known one when it is not the event's", () => {
    expect(renderSms(factsOf())).toBe(
      "CRITICAL GSensor - TRK-01 (Ada Lovelace) 29 Mar 03:30 UTC+2, last known 52.5200,13.4050, 82 km/h",
    );
  });
});

describe("SMS: OverSpeed", () => {
  const overSpeedAt = (incident: IncidentContext, vehicleid = "TRK-01") =>
    renderSms(
      factsOf({
        rule: overspeed,
        event: eventAt("2026-03-29T01:30:00Z", { appdevid: 13 }),
        device: fleetDevice({ vehicleid }),
        incident,
      }),
    );

  it("shows the speed at the event first, with the limit", () => {
    const incident = {
      ...INCIDENT_AT_EVENT,
      motion: { speedKmh: 97.4, source: "track" },
      speedLimitKmh: 80,
    } as const;
    expect(overSpeedAt(incident)).toBe(
      "WARNING OverSpeed 97 km/h (limit 80) - TRK-01 (Ada Lovelace) 29 Mar 03:30 UTC+2, at 52.5200,13.4050",
    );
    // Long names give way; the speed does not.
    const long = overSpeedAt(incident, "V".repeat(300));
    expect(long).toHaveLength(160);
    expect(long).toMatch(/^WARNING OverSpeed 97 km\/h \(limit 80\) - V+\.\.\. /);
  });

  it("says nothing of a speed it does not know", () => {
    expect(overSpeedAt({ position: INCIDENT_AT_EVENT.position })).toMatch(/^WARNING OverSpeed - TRK-01 /);
  });
});

describe("SMS: events and repeats", () => {
  it("names an event code outside the spec's table readably", () => {
    const rule = ruleSchema.parse({ id: "odd", events: [77], severity: "info" });
    const facts = atEvent({ rule, event: eventAt("2026-03-29T01:30:00Z", { appdevid: 77 }) });
    expect(renderSms(facts)).toMatch(/^INFO Unknown event 77 - TRK-01/);
  });

  it("confirms a sustained Offline", () => {
    const facts = atEvent({
      rule: offline,
      alertId: "east:1000123:offline",
      event: eventAt("2026-03-29T01:30:00Z", { appdevid: 3 }),
      confirmedOfflineMinutes: 10,
    });
    expect(renderSms(facts)).toMatch(
      /^WARNING Offline 10\+ min - TRK-01 \(Ada Lovelace\) 29 Mar 03:30 UTC\+2, /,
    );
  });

  it("mentions suppressed repeats only when there were some, in the right number", () => {
    expect(renderSms(atEvent({ suppressedBefore: 0 }))).not.toContain("suppressed");
    expect(renderSms(atEvent({ suppressedBefore: 1 }))).toMatch(/, 1 repeat suppressed$/);
  });
});
