import { type AlertContext, buildAlertMessage } from "@fleet-alerts/core/alerts";
import { timeZoneSchema } from "@fleet-alerts/core/config";
import { deviceEventSchema, type FleetDevice, fleetDeviceSchema } from "@fleet-alerts/core/devicecloud";
import { DEFAULT_RULES, type Rule, ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";

const [overspeed, gsensor, offline] = DEFAULT_RULES as [Rule, Rule, Rule, Rule];

function eventAt(eventtime: string, overrides: Record<string, unknown> = {}) {
  return deviceEventSchema.parse({
    serialno: "1000123",
    deviceid: "0012345678",
    eventtime,
    appdevid: 16,
    ...overrides,
  });
}

function fleetDevice(overrides: Record<string, unknown> = {}): FleetDevice {
  return fleetDeviceSchema.parse({
    deviceid: "0012345678",
    status: 1,
    nmea: "",
    updatetime: "2026-03-29T01:30:00.000Z",
    vehicleid: "TRK-01",
    drivername: "Ada Lovelace",
    channel: 4,
    gpsdata: {
      time: Date.parse("2026-03-29T01:29:55Z"),
      lat: 52.52,
      lng: 13.405,
      speedInKmh: 81.6,
      trackingAngle: 90,
    },
    ...overrides,
  });
}

function context(overrides: Partial<AlertContext> = {}): AlertContext {
  return {
    alertId: "main:1000123:gsensor",
    account: "main",
    event: eventAt("2026-03-29T01:30:00.000Z"),
    rule: gsensor,
    suppressedBefore: 0,
    device: fleetDevice(),
    fleetTimeZone: "Europe/Berlin",
    ...overrides,
  };
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Printable ASCII without the characters GSM 03.38 lacks or escapes (which would cost two).
const GSM_SAFE_ASCII = /^[\x20-\x5a\x5f\x61-\x7a]*$/;

describe("alert message: the usual case", () => {
  const message = buildAlertMessage(context({ suppressedBefore: 3 }));

  it("has a short subject with severity, event, vehicle and driver", () => {
    expect(message.subject).toBe("[CRITICAL] GSensor - TRK-01 (Ada Lovelace)");
  });

  it("has an SMS with the essentials first and the extras after", () => {
    expect(message.sms).toBe(
      "CRITICAL GSensor - TRK-01 (Ada Lovelace) 29 Mar 03:30 UTC+2, at 52.5200,13.4050, 82 km/h, 3 repeats suppressed",
    );
  });

  it("tells the whole story in the email", () => {
    expect(message.email).toBe(
      [
        "CRITICAL: GSensor on vehicle TRK-01 (driver Ada Lovelace).",
        "",
        "Event:      GSensor (event code 16)",
        "Vehicle:    TRK-01",
        "Driver:     Ada Lovelace",
        "Device ID:  0012345678",
        "Time:       2026-03-29 03:30:00 Europe/Berlin (UTC+02:00)",
        "            2026-03-29 01:30:00 UTC",
        "Position:   52.52000, 13.40500 (last GPS fix 2026-03-29 03:29:55 UTC+2, 5 s before the event)",
        "Map:        https://www.openstreetmap.org/?mlat=52.52000&mlon=13.40500#map=16/52.52000/13.40500",
        "Speed:      82 km/h at that fix",
        "Serial no.: 1000123",
        "Rule:       gsensor - G-sensor triggered: harsh braking, impact or collision",
        "Severity:   critical",
        "",
        "3 repeats of this event from this device were suppressed since the previous alert (the rule's cooldown is 1 min).",
        "",
        "Video evidence: channels 1 and 2, from 15 s before to 15 s after the event, will follow when the device has uploaded it.",
        "",
        "Alert ID: main:1000123:gsensor (account main)",
        "",
      ].join("\n"),
    );
  });

  it("carries the structured alert as JSON for other protocols", () => {
    expect(JSON.parse(message.default)).toEqual({
      kind: "alert",
      alertId: "main:1000123:gsensor",
      account: "main",
      ruleId: "gsensor",
      severity: "critical",
      eventCode: 16,
      eventName: "GSensor",
      deviceid: "0012345678",
      serialno: "1000123",
      eventtime: "2026-03-29T01:30:00.000Z",
      vehicleid: "TRK-01",
      drivername: "Ada Lovelace",
      position: {
        lat: 52.52,
        lng: 13.405,
        url: "https://www.openstreetmap.org/?mlat=52.52000&mlon=13.40500#map=16/52.52000/13.40500",
        fixtime: "2026-03-29T01:29:55.000Z",
      },
      speedKmh: 81.6,
      evidence: { channels: [1, 2], secondsBefore: 15, secondsAfter: 15 },
      suppressedBefore: 3,
      confirmedOfflineMinutes: null,
    });
  });

  it("has exactly the attributes that filter policies use", () => {
    expect(message.attributes).toEqual({
      kind: { DataType: "String", StringValue: "alert" },
      alert_id: { DataType: "String", StringValue: "main:1000123:gsensor" },
      account: { DataType: "String", StringValue: "main" },
      rule: { DataType: "String", StringValue: "gsensor" },
      severity: { DataType: "String", StringValue: "critical" },
      event_code: { DataType: "Number", StringValue: "16" },
      deviceid: { DataType: "String", StringValue: "0012345678" },
    });
  });
});

describe("alert message: serial numbers", () => {
  it("keeps a serial number beyond 2^53 exact, as a string", () => {
    const message = buildAlertMessage(
      context({ event: eventAt("2026-03-29T01:30:00Z", { serialno: "9007199254740993" }) }),
    );
    expect(JSON.parse(message.default).serialno).toBe("9007199254740993");
    expect(message.email).toContain("Serial no.: 9007199254740993\n");
  });
});

describe("alert message: subject and SMS limits", () => {
  const awkwardNames: [string, string][] = [
    ["Lastwagen Nürnberg–München „Süd“ Nr. 7", "Zoë Łukasiewicz-Straße"],
    ["Фура 12", "Иван Петров"],
    ["TRK\n01\tBERLIN\r\n", "Ada\u2028Lovelace\u0007"],
    ["Truck [north] {A|B} ~1^2 `x` \\y", "O'Brien € 5"],
    ["🚚 Truck 🚚", "👩‍✈️ Grace"],
    ["V".repeat(500), "D".repeat(500)],
    ["X".repeat(20), "Hubert Blaine Wolfeschlegelsteinhausenbergerdorff Sr. ".repeat(5)],
  ];

  for (const [vehicleid, drivername] of awkwardNames) {
    it(`fits ${JSON.stringify(vehicleid.slice(0, 24))} / ${JSON.stringify(drivername.slice(0, 24))}`, () => {
      const message = buildAlertMessage(
        context({ device: fleetDevice({ vehicleid, drivername }), suppressedBefore: 12 }),
      );
      expect(message.subject).toMatch(PRINTABLE_ASCII);
      expect(message.subject.length).toBeLessThan(100);
      expect(message.subject).toMatch(/^\[CRITICAL\] GSensor - \S/);
      expect(message.sms).toMatch(GSM_SAFE_ASCII);
      expect(message.sms.length).toBeLessThanOrEqual(160);
      // The essentials survive whatever the names: severity and event first, local time and position.
      expect(message.sms).toMatch(/^CRITICAL GSensor - /);
      expect(message.sms).toContain(" 29 Mar 03:30 UTC+2, at 52.5200,13.4050");
      // The email body keeps the names as they are, but never lets them add lines.
      expect(message.email.split("\n")).toHaveLength(21);
    });
  }

  it("transliterates accented Latin letters and typographic punctuation", () => {
    const message = buildAlertMessage(
      context({ device: fleetDevice({ vehicleid: "Nürnberg–Süd", drivername: "Zoë „Łukasiewicz“ Straße" }) }),
    );
    expect(message.subject).toBe('[CRITICAL] GSensor - Nurnberg-Sud (Zoe "Lukasiewicz" Strasse)');
    expect(message.sms).toMatch(/^CRITICAL GSensor - Nurnberg-Sud \(Zoe "Lukasiewicz" Strasse\) 29 Mar/);
    expect(message.email).toContain("Driver:     Zoë „Łukasiewicz“ Straße\n");
  });

  it("falls back to the device id when no letter of the vehicle's name survives, and drops such a driver", () => {
    const message = buildAlertMessage(
      context({ device: fleetDevice({ vehicleid: "Фура", drivername: "Иван" }) }),
    );
    expect(message.subject).toBe("[CRITICAL] GSensor - device 0012345678");
    expect(message.sms).toMatch(/^CRITICAL GSensor - device 0012345678 29 Mar 03:30 UTC\+2, /);
  });

  it("cuts long names with an ellipsis, sharing the room between vehicle and driver", () => {
    const message = buildAlertMessage(
      context({ device: fleetDevice({ vehicleid: "V".repeat(500), drivername: "D".repeat(500) }) }),
    );
    expect(message.subject).toBe(`[CRITICAL] GSensor - ${"V".repeat(34)}... (${"D".repeat(35)}...)`);
    expect(message.subject).toHaveLength(99);
    expect(message.sms).toHaveLength(160);
    expect(message.sms).toMatch(
      /^CRITICAL GSensor - V+\.\.\. \(D+\.\.\.\) 29 Mar 03:30 UTC\+2, at 52\.5200,13\.4050$/,
    );
  });

  it("gives a short driver's unused room to a long vehicle name", () => {
    const message = buildAlertMessage(
      context({ device: fleetDevice({ vehicleid: "V".repeat(500), drivername: "Ada" }) }),
    );
    expect(message.subject).toBe(`[CRITICAL] GSensor - ${"V".repeat(69)}... (Ada)`);
  });

  it("leaves out extras that do not fit whole, rather than cutting them", () => {
    const vehicleid = "V".repeat(78); // leaves room for the speed but not for the repeats
    const message = buildAlertMessage(
      context({ device: fleetDevice({ vehicleid, drivername: "" }), suppressedBefore: 3 }),
    );
    expect(message.sms).toBe(
      `CRITICAL GSensor - ${vehicleid} 29 Mar 03:30 UTC+2, at 52.5200,13.4050, 82 km/h`,
    );
  });
});

describe("alert message: time zones", () => {
  const at = (eventtime: string, fleetTimeZone: string) =>
    buildAlertMessage(context({ event: eventAt(eventtime), fleetTimeZone, device: undefined }));

  it("renders both sides of the spring-forward DST change in Europe/Berlin", () => {
    const before = at("2026-03-29T00:59:59Z", "Europe/Berlin");
    const after = at("2026-03-29T01:00:00Z", "Europe/Berlin");
    expect(before.email).toContain(
      "Time:       2026-03-29 01:59:59 Europe/Berlin (UTC+01:00)\n            2026-03-29 00:59:59 UTC\n",
    );
    expect(after.email).toContain(
      "Time:       2026-03-29 03:00:00 Europe/Berlin (UTC+02:00)\n            2026-03-29 01:00:00 UTC\n",
    );
    expect(before.sms).toContain(" 29 Mar 01:59 UTC+1, ");
    expect(after.sms).toContain(" 29 Mar 03:00 UTC+2, ");
  });

  it("renders the repeated hour of the fall-back change distinctly", () => {
    const first = at("2026-10-25T00:30:00Z", "Europe/Berlin");
    const second = at("2026-10-25T01:30:00Z", "Europe/Berlin");
    expect(first.email).toContain("2026-10-25 02:30:00 Europe/Berlin (UTC+02:00)");
    expect(second.email).toContain("2026-10-25 02:30:00 Europe/Berlin (UTC+01:00)");
  });

  it("renders half-hour offsets, east and west, including the change of date", () => {
    const kolkata = at("2026-01-05T20:00:00Z", "Asia/Kolkata");
    expect(kolkata.email).toContain("2026-01-06 01:30:00 Asia/Kolkata (UTC+05:30)");
    expect(kolkata.sms).toContain(" 6 Jan 01:30 UTC+5:30, ");
    const stJohns = at("2026-01-05T02:00:00Z", "America/St_Johns");
    expect(stJohns.email).toContain("2026-01-04 22:30:00 America/St_Johns (UTC-03:30)");
    expect(stJohns.sms).toContain(" 4 Jan 22:30 UTC-3:30, ");
  });

  it("says UTC plainly for the UTC zone", () => {
    expect(at("2026-07-01T12:00:00Z", "UTC").sms).toContain(" 1 Jul 12:00 UTC, ");
  });

  it("uses the event's UTC instant whatever offset the service wrote", () => {
    const message = at("2026-03-29T03:30:00+02:00", "Asia/Kolkata");
    expect(message.email).toContain(
      "2026-03-29 07:00:00 Asia/Kolkata (UTC+05:30)\n            2026-03-29 01:30:00 UTC\n",
    );
  });

  it("refuses an unknown time zone with an error naming it", () => {
    expect(() => buildAlertMessage(context({ fleetTimeZone: "Europe/Berln" }))).toThrow(
      new RangeError('fleet time zone "Europe/Berln" is not an IANA time zone (such as "Europe/Berlin")'),
    );
    expect(() => buildAlertMessage(context({ fleetTimeZone: "" }))).toThrow(RangeError);
  });

  it("offers a schema for configuration that accepts IANA zones only", () => {
    expect(timeZoneSchema.safeParse("Australia/Adelaide").success).toBe(true);
    const refused = timeZoneSchema.safeParse("Mars/Olympus_Mons");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('must be an IANA time zone such as "Europe/Berlin"');
  });
});

describe("alert message: missing enrichment", () => {
  it("works without the device's status", () => {
    const message = buildAlertMessage(context({ device: undefined }));
    expect(message.subject).toBe("[CRITICAL] GSensor - device 0012345678");
    expect(message.sms).toBe("CRITICAL GSensor - device 0012345678 29 Mar 03:30 UTC+2, position unknown");
    expect(message.email).toContain("CRITICAL: GSensor on device 0012345678.\n");
    expect(message.email).toContain("Vehicle:    unknown (no device status was available)\n");
    expect(message.email).toContain("Driver:     unknown (no device status was available)\n");
    expect(message.email).toContain("Position:   unknown (no device status was available)\n");
    expect(message.email).not.toContain("Map:");
    expect(message.email).not.toContain("Speed:");
    expect(JSON.parse(message.default)).toMatchObject({
      vehicleid: null,
      drivername: null,
      position: null,
      speedKmh: null,
    });
  });

  it("works with a device that has no GPS fix and no names set", () => {
    const message = buildAlertMessage(
      context({ device: fleetDevice({ gpsdata: undefined, vehicleid: " ", drivername: "" }) }),
    );
    expect(message.subject).toBe("[CRITICAL] GSensor - device 0012345678");
    expect(message.email).toContain("Vehicle:    not set\n");
    expect(message.email).toContain("Driver:     not set\n");
    expect(message.email).toContain("Position:   unknown (the device reported no GPS fix)\n");
    expect(message.sms).toContain(", position unknown");
    expect(JSON.parse(message.default)).toMatchObject({
      vehicleid: " ",
      drivername: "",
      position: null,
      speedKmh: null,
    });
  });

  it("says when the last fix was, with its own offset, and how long before or after the event", () => {
    const stale = fleetDevice({
      gpsdata: {
        time: Date.parse("2026-03-29T00:28:00Z"),
        lat: -33.8688,
        lng: 151.2093,
        speedInKmh: 0,
        trackingAngle: 0,
      },
    });
    const message = buildAlertMessage(context({ device: stale }));
    expect(message.email).toContain(
      "Position:   -33.86880, 151.20930 (last GPS fix 2026-03-29 01:28:00 UTC+1, 1 h 2 min before the event)\n",
    );
    const later = fleetDevice({
      gpsdata: {
        time: Date.parse("2026-03-29T01:30:00.400Z"),
        lat: 1,
        lng: 2,
        speedInKmh: 0,
        trackingAngle: 0,
      },
    });
    expect(buildAlertMessage(context({ device: later })).email).toContain("UTC+2, at the time of the event)");
    const after = fleetDevice({
      gpsdata: { time: Date.parse("2026-03-29T01:30:45Z"), lat: 1, lng: 2, speedInKmh: 0, trackingAngle: 0 },
    });
    expect(buildAlertMessage(context({ device: after })).email).toContain("UTC+2, 45 s after the event)");
  });
});

describe("alert message: events", () => {
  it("names an event code outside the spec's table readably", () => {
    const rule = ruleSchema.parse({ id: "odd", events: [77], severity: "info" });
    const message = buildAlertMessage(
      context({ rule, event: eventAt("2026-03-29T01:30:00Z", { appdevid: 77 }) }),
    );
    expect(message.subject).toBe("[INFO] Unknown event 77 - TRK-01 (Ada Lovelace)");
    expect(message.email).toContain(
      "Event:      Unknown event 77 (a code the service's table of events does not name)\n",
    );
    expect(message.sms).toMatch(/^INFO Unknown event 77 - TRK-01/);
    expect(JSON.parse(message.default)).toMatchObject({ eventCode: 77, eventName: "Unknown event 77" });
    expect(message.attributes.event_code).toEqual({ DataType: "Number", StringValue: "77" });
  });

  it("confirms a sustained Offline", () => {
    const message = buildAlertMessage(
      context({
        rule: offline,
        alertId: "main:1000123:offline",
        event: eventAt("2026-03-29T01:30:00Z", { appdevid: 3 }),
        confirmedOfflineMinutes: 10,
      }),
    );
    expect(message.subject).toBe("[WARNING] Offline 10+ min - TRK-01 (Ada Lovelace)");
    expect(message.sms).toMatch(/^WARNING Offline 10\+ min - TRK-01 \(Ada Lovelace\) 29 Mar 03:30 UTC\+2, /);
    expect(message.email).toContain(
      "\n\nConfirmed: the device was still offline 10 minutes after this event.\n\n",
    );
    expect(JSON.parse(message.default).confirmedOfflineMinutes).toBe(10);
  });

  it("says nothing of confirmation for an Offline alert sent at once", () => {
    const rule = ruleSchema.parse({ id: "offline-now", events: ["Offline"], severity: "info" });
    const message = buildAlertMessage(
      context({ rule, event: eventAt("2026-03-29T01:30:00Z", { appdevid: 3 }) }),
    );
    expect(message.subject).toBe("[INFO] Offline - TRK-01 (Ada Lovelace)");
    expect(message.email).not.toContain("Confirmed");
  });
});

describe("alert message: repeats and evidence", () => {
  it("mentions suppressed repeats only when there were some, in the right number", () => {
    expect(buildAlertMessage(context({ suppressedBefore: 0 })).email).not.toContain("suppressed");
    expect(buildAlertMessage(context({ suppressedBefore: 0 })).sms).not.toContain("suppressed");
    expect(buildAlertMessage(context({ suppressedBefore: 1 })).email).toContain(
      "\n\n1 repeat of this event from this device was suppressed since the previous alert (the rule's cooldown is 1 min).\n\n",
    );
    expect(buildAlertMessage(context({ suppressedBefore: 1 })).sms).toMatch(/, 1 repeat suppressed$/);
  });

  it("describes the video that will follow, or that none was asked for", () => {
    const evidenceOf = (evidence: unknown) => {
      const rule = ruleSchema.parse({
        id: "r",
        events: [16],
        severity: "info",
        ...(evidence ? { evidence } : {}),
      });
      const paragraphs = buildAlertMessage(context({ rule })).email.split("\n\n");
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

  it("puts the evidence request in the structured alert, or null", () => {
    expect(JSON.parse(buildAlertMessage(context({ rule: overspeed })).default).evidence).toEqual({
      channels: [1],
      secondsBefore: 30,
      secondsAfter: 30,
    });
    const rule = ruleSchema.parse({ id: "r", events: [16], severity: "info" });
    expect(JSON.parse(buildAlertMessage(context({ rule })).default).evidence).toBeNull();
  });
});

describe("alert message: nothing beyond the named fields", () => {
  it("copies no unlisted field of the event or the device into any body or attribute", () => {
    const leaky = "s3cr3t-value-that-must-not-appear";
    const message = buildAlertMessage(
      context({
        event: eventAt("2026-03-29T01:30:00Z", { memo: leaky, loopdata: leaky, password: leaky }),
        device: fleetDevice({ nmea: leaky, token: leaky }),
      }),
    );
    expect(JSON.stringify(message)).not.toContain(leaky);
  });
});
