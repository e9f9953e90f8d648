import { fc, test } from "@fast-check/vitest";
import type { Observation } from "@fleet-alerts/core";
import { shown, terminalText } from "@fleet-alerts/core/text";
import { describe, expect, it } from "vitest";
import { humanView } from "../../packages/local/src/human-view.js";
import { emptyTotals, type LocalLine } from "../../packages/local/src/report.js";
import { ACTS_NOT_SHOWS, deviceIdArbitrary, linesOf, untrustedString } from "../support/untrusted-strings.js";

interface Sent {
  vehicleid: string | null;
  drivername: string | null;
  deviceid: string;
  sms: string;
}

/** An alert-published observation of a device the device cloud names so. */
function published({ vehicleid, drivername, deviceid, sms }: Sent): Observation {
  return {
    type: "alert-published",
    account: "local",
    alertId: "local:1002:gsensor",
    serialno: "1002",
    rule: "gsensor",
    deviceid,
    severity: "critical",
    body: {
      kind: "alert",
      alertId: "local:1002:gsensor",
      account: "local",
      ruleId: "gsensor",
      severity: "critical",
      eventCode: 16,
      eventName: "GSensor",
      deviceid,
      serialno: "1002",
      eventtime: "2026-11-23T08:50:00Z",
      vehicleid,
      drivername,
      position: { lat: 52.52, lng: 13.405, source: "event", fixtime: "2026-11-23T08:50:00.000Z", url: "u" },
      speedKmh: 42,
      speedSource: "track",
      headingDeg: null,
      speedLimitKmh: null,
      evidence: null,
      suppressedBefore: 0,
      confirmedOfflineMinutes: null,
    },
    sms,
    groups: ["everyone"],
    held: [],
    recipients: { email: 1, sms: 0, smsCapped: 0, targets: [] },
  };
}

// With --verbose: the block then carries the SMS too, the device cloud's texts as a message has them.
const printed = (sent: Sent) =>
  humanView(published(sent), emptyTotals(), "09:00:00", { verbose: true }).print ?? "";
const PLAIN = printed({ vehicleid: "V", drivername: "D", deviceid: "d", sms: "S" });

const sent = fc.record({
  vehicleid: fc.option(untrustedString(), { nil: null }),
  drivername: fc.option(untrustedString(), { nil: null }),
  deviceid: deviceIdArbitrary(),
  sms: untrustedString(),
});

describe("terminalText", () => {
  test.prop([untrustedString()], { numRuns: 1000 })(
    "leaves nothing a terminal acts on: no control, separator, bidi control, noncharacter or lone surrogate",
    (text) => {
      const safe = terminalText(text);
      expect(safe).not.toMatch(ACTS_NOT_SHOWS);
      expect(safe.isWellFormed()).toBe(true);
    },
  );

  test.prop([untrustedString()], { numRuns: 1000 })(
    "changes nothing in a text a terminal only shows",
    (text) => {
      const showable = text.toWellFormed().replace(new RegExp(ACTS_NOT_SHOWS.source, "gu"), "");
      expect(terminalText(showable)).toBe(showable);
    },
  );

  test.prop([untrustedString(), untrustedString()], { numRuns: 1000 })(
    "is what the shown tag writes for each value, its own parts as written",
    (first, second) => {
      expect(shown`a\n${first} b ${second}`).toBe(`a\n${terminalText(first)} b ${terminalText(second)}`);
    },
  );
});

describe("the live view of a published alert, whatever the device cloud sent", () => {
  test.prop([sent], { numRuns: 1000 })("prints as many lines as with plain names", (names) => {
    expect(linesOf(printed(names))).toHaveLength(linesOf(PLAIN).length);
  });

  test.prop([sent], { numRuns: 1000 })(
    "prints no character the terminal acts on but its own line breaks",
    (names) => {
      const text = printed(names);
      expect(text.replaceAll("\n", "")).not.toMatch(ACTS_NOT_SHOWS);
      expect(text.isWellFormed()).toBe(true);
    },
  );
});

/** Observations that name a device, with the device cloud's (or AWS's) texts in them. */
function aboutDevice(deviceid: string, text: string): LocalLine[] {
  const ids = { account: "local", serialno: "1002", rule: "gsensor", deviceid };
  const alert = { ...ids, alertId: "local:1002:gsensor" };
  return [
    { type: "alert-suppressed", ...ids, suppressedSoFar: 2 },
    { type: "offline-scheduled", ...ids, dueAt: "2026-11-23T09:00:00.000Z" },
    { type: "alert-failed", ...alert, reason: text },
    { type: "evidence-failed", ...alert, reason: text, receives: 3, final: true },
    { type: "gps-history-unavailable", account: "local", deviceid, reason: "failed", alerts: 1 },
    {
      type: "record-set-aside",
      account: "local",
      serialno: "1002",
      deviceid,
      ruleId: "gsensor",
      step: "publish",
      reason: text,
    },
    { type: "event-rejected", account: "local", serialno: "1002", issues: [{ path: text, message: text }] },
    { type: "problem", message: text },
    { type: "notified", channel: "email", recipient: "ops@example.com", kind: "alert", subject: text },
  ];
}

describe("the live view of other lines that name a device", () => {
  test.prop([deviceIdArbitrary(), untrustedString()], { numRuns: 1000 })(
    "prints each on one line, with no character the terminal acts on",
    (deviceid, text) => {
      for (const line of aboutDevice(deviceid, text)) {
        const print = humanView(line, emptyTotals(), "09:00:00", { verbose: true }).print ?? "";
        expect(linesOf(print)).toHaveLength(1);
        expect(print).not.toMatch(ACTS_NOT_SHOWS);
        expect(print.isWellFormed()).toBe(true);
      }
    },
  );
});

describe("the live view: a driver's name with terminal controls", () => {
  it.each([
    ["an escape sequence", "Ada\u001b[31mRed", "Ada\\x1b[31mRed"],
    ["a window title", "\u001b]0;pwned\u0007Ada", "\\x1b]0;pwned\\x07Ada"],
    ["NUL", "Ada\u0000", "Ada\\x00"],
    ["BEL", "Ada\u0007", "Ada\\x07"],
    ["CR", "Ada\rMallory", "Ada\\x0dMallory"],
  ])("shows %s as its escape", (_, drivername, visible) => {
    const text = printed({ vehicleid: "TR-1", drivername, deviceid: "d", sms: "S" });
    expect(text).toContain(`(${visible})`);
    expect(text.replaceAll("\n", "")).not.toMatch(/\p{Cc}/u);
  });

  it("lets no CR start a line over the alert", () => {
    const text = printed({
      vehicleid: "TR-1\r09:00:01 ALL CLEAR",
      drivername: "D",
      deviceid: "d",
      sms: "S\r",
    });
    expect(text).not.toContain("\r");
    expect(linesOf(text)).toHaveLength(linesOf(PLAIN).length);
    expect(text.split("\n")[0]).toContain("TR-1\\x0d09:00:01 ALL CLEAR");
  });
});
