import { renderSubject } from "@fleet-alerts/core/alerts";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import {
  AWKWARD_NAMES,
  awkwardTitle,
  eventAt,
  factsOf,
  fleetDevice,
  offline,
  PRINTABLE_ASCII,
} from "../fixtures.js";

describe("subject: the usual case", () => {
  it("has a short subject with severity, event, vehicle and driver", () => {
    expect(renderSubject(factsOf({ suppressedBefore: 3 }))).toBe(
      "[CRITICAL] GSensor - TRK-01 (Ada Lovelace)",
    );
  });
});

describe("subject: SNS's limits", () => {
  for (const names of AWKWARD_NAMES) {
    const [vehicleid, drivername] = names;
    it(`fits ${awkwardTitle(names)}`, () => {
      const subject = renderSubject(
        factsOf({ device: fleetDevice({ vehicleid, drivername }), suppressedBefore: 12 }),
      );
      expect(subject).toMatch(PRINTABLE_ASCII);
      expect(subject.length).toBeLessThan(100);
      expect(subject).toMatch(/^\[CRITICAL\] GSensor - \S/);
    });
  }

  it("transliterates accented Latin letters and typographic punctuation", () => {
    const subject = renderSubject(
      factsOf({ device: fleetDevice({ vehicleid: "Nürnberg–Süd", drivername: "Zoë „Łukasiewicz“ Straße" }) }),
    );
    expect(subject).toBe('[CRITICAL] GSensor - Nurnberg-Sud (Zoe "Lukasiewicz" Strasse)');
  });

  it("falls back to the device id when no letter of the vehicle's name survives, and drops such a driver", () => {
    const subject = renderSubject(
      factsOf({ device: fleetDevice({ vehicleid: "Фура", drivername: "Иван" }) }),
    );
    expect(subject).toBe("[CRITICAL] GSensor - device 0012345678");
  });

  it("cuts long names with an ellipsis, sharing the room between vehicle and driver", () => {
    const subject = renderSubject(
      factsOf({ device: fleetDevice({ vehicleid: "V".repeat(500), drivername: "D".repeat(500) }) }),
    );
    expect(subject).toBe(`[CRITICAL] GSensor - ${"V".repeat(34)}... (${"D".repeat(35)}...)`);
    expect(subject).toHaveLength(99);
  });

  it("gives a short driver's unused room to a long vehicle name", () => {
    const subject = renderSubject(
      factsOf({ device: fleetDevice({ vehicleid: "V".repeat(500), drivername: "Ada" }) }),
    );
    expect(subject).toBe(`[CRITICAL] GSensor - ${"V".repeat(69)}... (Ada)`);
  });
});

describe("subject: missing enrichment", () => {
  it("names the device without the device's status", () => {
    expect(renderSubject(factsOf({ device: undefined }))).toBe("[CRITICAL] GSensor - device 0012345678");
  });

  it("names the device when the device has no names set", () => {
    const facts = factsOf({ device: fleetDevice({ gpsdata: undefined, vehicleid: " ", drivername: "" }) });
    expect(renderSubject(facts)).toBe("[CRITICAL] GSensor - device 0012345678");
  });
});

describe("subject: events", () => {
  it("names an event code outside the spec's table readably", () => {
    const rule = ruleSchema.parse({ id: "odd", events: [77], severity: "info" });
    const facts = factsOf({ rule, event: eventAt("2026-03-29T01:30:00Z", { appdevid: 77 }) });
    expect(renderSubject(facts)).toBe("[INFO] Unknown event 77 - TRK-01 (Ada Lovelace)");
  });

  it("confirms a sustained Offline", () => {
    const facts = factsOf({
      rule: offline,
      alertId: "east:1000123:offline",
      event: eventAt("2026-03-29T01:30:00Z", { appdevid: 3 }),
      confirmedOfflineMinutes: 10,
    });
    expect(renderSubject(facts)).toBe("[WARNING] Offline 10+ min - TRK-01 (Ada Lovelace)");
  });

  it("says nothing of confirmation for an Offline alert sent at once", () => {
    const rule = ruleSchema.parse({ id: "offline-now", events: ["Offline"], severity: "info" });
    const facts = factsOf({ rule, event: eventAt("2026-03-29T01:30:00Z", { appdevid: 3 }) });
    expect(renderSubject(facts)).toBe("[INFO] Offline - TRK-01 (Ada Lovelace)");
  });
});
