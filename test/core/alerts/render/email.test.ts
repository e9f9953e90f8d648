import { renderEmail } from "@fleet-alerts/core/alerts";
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
  INCIDENT_AT_EVENT,
  offline,
} from "../fixtures.js";

describe("email: the usual case", () => {
  it("tells the whole story in the email", () => {
    expect(renderEmail(factsOf({ suppressedBefore: 3, incident: INCIDENT_AT_EVENT }))).toBe(
      [
        "CRITICAL: GSensor on vehicle TRK-01 (driver Ada Lovelace).",
        "",
        "Event:      GSensor (event code 16)",
        "Vehicle:    TRK-01",
        "Driver:     Ada Lovelace",
        "Device ID:  0012345678",
        "Time:       2026-03-29 03:30:00 Europe/Berlin (UTC+02:00)",
        "            2026-03-29 01:30:00 UTC",
        "Position:   52.52000, 13.40500 (reported with the event)",
        "Map:        https://www.openstreetmap.org/?mlat=52.52000&mlon=13.40500#map=16/52.52000/13.40500",
        "Speed:      82 km/h at the event (GPS track)",
        "Heading:    90 degrees (E)",
        "Serial no.: 1000123",
        "Rule:       gsensor - G-sensor triggered: harsh braking, impact or collision",
        "Severity:   critical",
        "",
        "3 repeats of this event from this device were suppressed since the previous alert (the rule's cooldown is 1 min).",
        "",
        "Video evidence: channels 1 and 2, from 15 s before to 15 s after the event, will follow when the device has uploaded it.",
        "",
        "Alert ID: east:1000123:gsensor (account east)",
        "",
      ].join("\n"),
    );
  });

  it("keeps a serial number beyond 2^53 exact", () => {
    const facts = factsOf({ event: eventAt("2026-03-29T01:30:00Z", { serialno: "9007199254740993" }) });
    expect(renderEmail(facts)).toContain("Serial no.: 9007199254740993\n");
  });
});

describe("email: names as they are", () => {
  for (const names of AWKWARD_NAMES) {
    const [vehicleid, drivername] = names;
    it(`never lets ${awkwardTitle(names)} add lines`, () => {
      const email = renderEmail(
        factsOf({ device: fleetDevice({ vehicleid, drivername }), suppressedBefore: 12 }),
      );
      expect(email.split("\n")).toHaveLength(22);
    });
  }

  it("keeps accented Latin letters and typographic punctuation", () => {
    const email = renderEmail(
      factsOf({ device: fleetDevice({ vehicleid: "Nürnberg–Süd", drivername: "Zoë „Łukasiewicz“ Straße" }) }),
    );
    expect(email).toContain("Driver:     Zoë „Łukasiewicz“ Straße\n");
  });
});

describe("email: time zones", () => {
  it("renders both sides of the spring-forward DST change in Europe/Berlin", () => {
    expect(renderEmail(factsAt("2026-03-29T00:59:59Z", "Europe/Berlin"))).toContain(
      "Time:       2026-03-29 01:59:59 Europe/Berlin (UTC+01:00)\n            2026-03-29 00:59:59 UTC\n",
    );
    expect(renderEmail(factsAt("2026-03-29T01:00:00Z", "Europe/Berlin"))).toContain(
      "Time:       2026-03-29 03:00:00 Europe/Berlin (UTC+02:00)\n            2026-03-29 01:00:00 UTC\n",
    );
  });

  it("renders the repeated hour of the fall-back change distinctly", () => {
    const first = renderEmail(factsAt("2026-10-25T00:30:00Z", "Europe/Berlin"));
    const second = renderEmail(factsAt("2026-10-25T01:30:00Z", "Europe/Berlin"));
    expect(first).toContain("2026-10-25 02:30:00 Europe/Berlin (UTC+02:00)");
    expect(second).toContain("2026-10-25 02:30:00 Europe/Berlin (UTC+01:00)");
  });

  it("renders half-hour offsets, east and west, including the change of date", () => {
    expect(renderEmail(factsAt("2026-01-05T20:00:00Z", "Asia/Kolkata"))).toContain(
      "2026-01-06 01:30:00 Asia/Kolkata (UTC+05:30)",
    );
    expect(renderEmail(factsAt("2026-01-05T02:00:00Z", "America/St_Johns"))).toContain(
      "2026-01-04 22:30:00 America/St_Johns (UTC-03:30)",
    );
  });

  it("uses the event's UTC instant whatever offset the service wrote", () => {
    expect(renderEmail(factsAt("2026-03-29T03:30:00+02:00", "Asia/Kolkata"))).toContain(
      "2026-03-29 07:00:00 Asia/Kolkata (UTC+05:30)\n            2026-03-29 01:30:00 UTC\n",
    );
  });
});

describe("email: missing enrichment", () => {
  it("works without the device's status", () => {
    const email = renderEmail(factsOf({ device: undefined }));
    expect(email).toContain("CRITICAL: GSensor on device 0012345678.\n");
    expect(email).toContain("Vehicle:    unknown (no device status was available)\n");
    expect(email).toContain("Driver:     unknown (no device status was available)\n");
    expect(email).toContain(
      "Position:   unknown (the event had no coordinates, GPS history lookups are off, and no device status was available)\n",
    );
    expect(email).not.toContain("Map:");
    expect(email).toContain("Speed:      unknown at the event (no GPS data near it)\n");
    expect(email).not.toContain("Heading:");
  });

  it("works with a device that has no GPS fix and no names set", () => {
    const email = renderEmail(
      factsOf({ device: fleetDevice({ gpsdata: undefined, vehicleid: " ", drivername: "" }) }),
    );
    expect(email).toContain("Vehicle:    not set\n");
    expect(email).toContain("Driver:     not set\n");
    expect(email).toContain(
      "Position:   unknown (the event had no coordinates, GPS history lookups are off, and the device reported no GPS fix)\n",
    );
  });

  it("labels a last known position with its distance in time from the event, and its own offset", () => {
    const fixAt = (time: string, lat: number, lng: number) =>
      renderEmail(
        factsOf({
          device: fleetDevice({
            gpsdata: { time: Date.parse(time), lat, lng, speedInKmh: 0, trackingAngle: 0 },
          }),
        }),
      );
    expect(fixAt("2026-03-29T00:28:00Z", -33.8688, 151.2093)).toContain(
      "Position:   -33.86880, 151.20930 (last known position, 1 h 2 min before the event; GPS fix of 2026-03-29 01:28:00 UTC+1)\n",
    );
    expect(fixAt("2026-03-29T00:28:00Z", 1, 2)).toContain("Speed:      unknown at the event");
    expect(fixAt("2026-03-29T01:30:00.400Z", 1, 2)).toContain(
      "(last known position, at the time of the event;",
    );
    expect(fixAt("2026-03-29T01:30:45Z", 1, 2)).toContain("(last known position, 45 s after the event;");
  });
});

describe("email: position, speed and heading at the event", () => {
  const eventMs = Date.parse("2026-03-29T01:30:00Z");
  const emailWith = (incident: IncidentContext) => renderEmail(factsOf({ incident }));

  it("says a track position was interpolated to the event time, or how far the nearest point was", () => {
    const track = { lat: 52.5, lng: 13.4, source: "track" } as const;
    expect(emailWith({ position: { ...track, fixMs: eventMs, method: "interpolated" } })).toContain(
      "Position:   52.50000, 13.40000 (GPS track, at the time of the event)\n",
    );
    expect(emailWith({ position: { ...track, fixMs: eventMs - 12_000, method: "nearest" } })).toContain(
      "Position:   52.50000, 13.40000 (GPS track, nearest point 12 s before the event)\n",
    );
  });

  it("gives an OverSpeed's speed with its limit, and says where the speed came from", () => {
    expect(
      emailWith({ motion: { speedKmh: 97.4, source: "track", headingDeg: 181 }, speedLimitKmh: 80 }),
    ).toContain("Speed:      97 km/h at the event (GPS track), limit 80 km/h\nHeading:    181 degrees (S)\n");
    expect(emailWith({ motion: { speedKmh: 92.3, source: "memo" } })).toContain(
      "Speed:      92 km/h at the event (as the device reported it with the event)\n",
    );
    expect(emailWith({ speedLimitKmh: 80 })).toContain(
      "Speed:      unknown at the event (no GPS data near it), limit 80 km/h\n",
    );
  });
});

describe("email: events", () => {
  it("names an event code outside the spec's table readably", () => {
    const rule = ruleSchema.parse({ id: "odd", events: [77], severity: "info" });
    expect(
      renderEmail(factsOf({ rule, event: eventAt("2026-03-29T01:30:00Z", { appdevid: 77 }) })),
    ).toContain("Event:      Unknown event 77 (a code the service's table of events does not name)\n");
  });

  it("confirms a sustained Offline", () => {
    const facts = factsOf({
      rule: offline,
      alertId: "east:1000123:offline",
      event: eventAt("2026-03-29T01:30:00Z", { appdevid: 3 }),
      confirmedOfflineMinutes: 10,
    });
    expect(renderEmail(facts)).toContain(
      "\n\nConfirmed: the device was still offline 10 minutes after this event.\n\n",
    );
  });

  it("says nothing of confirmation for an Offline alert sent at once", () => {
    const rule = ruleSchema.parse({ id: "offline-now", events: ["Offline"], severity: "info" });
    const facts = factsOf({ rule, event: eventAt("2026-03-29T01:30:00Z", { appdevid: 3 }) });
    expect(renderEmail(facts)).not.toContain("Confirmed");
  });

  it("puts a rule's description on one line", () => {
    const rule = ruleSchema.parse({ id: "r", events: [16], severity: "info", description: "harsh\nbraking" });
    expect(renderEmail(factsOf({ rule }))).toContain("Rule:       r - harsh braking\n");
  });
});

describe("email: repeats and evidence", () => {
  it("mentions suppressed repeats only when there were some, in the right number", () => {
    expect(renderEmail(factsOf({ suppressedBefore: 0 }))).not.toContain("suppressed");
    expect(renderEmail(factsOf({ suppressedBefore: 1 }))).toContain(
      "\n\n1 repeat of this event from this device was suppressed since the previous alert (the rule's cooldown is 1 min).\n\n",
    );
  });

  it("describes the video that will follow, or that none was asked for", () => {
    const evidenceOf = (evidence: unknown) => {
      const rule = ruleSchema.parse({
        id: "r",
        events: [16],
        severity: "info",
        ...(evidence ? { evidence } : {}),
      });
      const paragraphs = renderEmail(factsOf({ rule })).split("\n\n");
      return paragraphs.find((paragraph) => paragraph.includes("evidence"));
    };
    expect(evidenceOf(undefined)).toBe("No video evidence was requested by this rule.");
    expect(evidenceOf({ channels: [1], secondsBefore: 30, secondsAfter: 30 })).toBe(
      "Video evidence: channel 1, from 30 s before to 30 s after the event, will follow when the device has uploaded it.",
    );
    expect(evidenceOf({ channels: [4, 1, 2], secondsBefore: 90, secondsAfter: 0 })).toBe(
      "Video evidence: channels 4, 1 and 2, from 1 min 30 s before to the event, will follow when the device has uploaded it.",
    );
    expect(evidenceOf({ channels: [2], secondsBefore: 0, secondsAfter: 3600 })).toBe(
      "Video evidence: channel 2, from the event to 1 h after the event, will follow when the device has uploaded it.",
    );
  });
});
