import type { Observation } from "@fleet-alerts/core";
import { describe, expect, it } from "vitest";
import { routeText } from "../../packages/local/src/alert-block.js";
import { humanView, statusLine, summaryLine } from "../../packages/local/src/human-view.js";
import { jsonLine } from "../../packages/local/src/json-view.js";
import { emptyTotals, type LocalLine, reporting, tally } from "../../packages/local/src/report.js";

const ids = { account: "local", rule: "offline", deviceid: "0011778082" };
const alertIds = (serialno: string, rule = "offline") => ({
  ...ids,
  rule,
  serialno,
  alertId: `local:${serialno}:${rule}`,
});
const poll = (eventsRead: number, evidenceJobs: number): Observation => ({
  type: "poll-summary",
  account: "local",
  outcome: "caught-up",
  eventsRead,
  alertsPublished: 1,
  alertsFailed: 0,
  suppressed: 1,
  stale: 0,
  rejected: 0,
  offlineChecks: 1,
  offlineCancelled: 0,
  evidenceJobs,
  gpsLookups: 1,
  gpsLookupsFailed: 0,
  positionsFromEvent: 1,
  positionsFromTrack: 0,
  positionsLastKnown: 0,
  positionsUnknown: 0,
  lagSeconds: 3,
});

// A run in miniature: an Offline alert confirmed, then the next one suppressed by the rule's
// cooldown after that confirmation; a G-sensor alert with its evidence; a repeat suppressed.
const lines: LocalLine[] = [
  poll(7, 1),
  { type: "offline-scheduled", ...ids, serialno: "1001", dueAt: "2026-11-23T09:00:00.000Z" },
  {
    type: "alert-published",
    ...alertIds("1002", "gsensor"),
    severity: "critical",
    body: {
      kind: "alert",
      alertId: "local:1002:gsensor",
      account: "local",
      ruleId: "gsensor",
      severity: "critical",
      eventCode: 16,
      eventName: "GSensor",
      deviceid: ids.deviceid,
      serialno: "1002",
      eventtime: "2026-11-23T08:50:00Z",
      vehicleid: "TR-AE 6733",
      drivername: null,
      position: null,
      speedKmh: null,
      speedSource: null,
      headingDeg: null,
      speedLimitKmh: null,
      evidence: { channels: [1], secondsBefore: 10, secondsAfter: 20 },
      suppressedBefore: 0,
      confirmedOfflineMinutes: null,
    },
    sms: "CRITICAL GSensor - TR-AE 6733",
    groups: ["everyone"],
    held: [],
    recipients: { email: 2, sms: 1, smsCapped: 0, targets: [] },
  },
  { type: "alert-suppressed", ...ids, rule: "gsensor", serialno: "1003", suppressedSoFar: 1 },
  { type: "offline-confirmed", ...alertIds("1001") },
  { type: "offline-scheduled", ...ids, serialno: "1004", dueAt: "2026-11-23T09:05:00.000Z" },
  { type: "offline-suppressed", ...ids, serialno: "1004" },
  {
    type: "evidence-stored",
    ...alertIds("1002", "gsensor"),
    bucket: "evidence",
    manifestKey: "evidence/x/manifest.json",
    clips: [{ key: "evidence/x/data/ch1.mp4", channel: 1, bytes: 1_000, sha256: "ab" }],
    partial: false,
    track: { status: "unavailable", reason: "failed" },
    bag: { prefix: "evidence/x/", report: "evidence/x/report.html", timestamp: "off" },
  },
  { type: "evidence-progress", key: "evidence/y/ch1.mp4", bytes: 10, totalBytes: 20 },
  { type: "problem", message: "the device cloud answered 503" },
  poll(2, 0),
];

describe("the local mode's views", () => {
  const totals = lines.reduce(tally, emptyTotals());

  it("keeps one set of totals, whichever view is fed", () => {
    const fed: LocalLine[] = [];
    const reporter = reporting((line) => fed.push(line));
    for (const line of lines) reporter.report(line);
    expect(fed).toEqual(lines);
    expect(reporter.totals()).toEqual(totals);
    expect(totals).toMatchObject({ eventsRead: 9, evidencePending: 0, lagSeconds: 3, problems: 1 });
    expect(totals.observations).toMatchObject({
      "poll-summary": 2,
      "alert-published": 1,
      "alert-suppressed": 1,
      "offline-scheduled": 2,
      "offline-confirmed": 1,
      "offline-suppressed": 1,
      "evidence-stored": 1,
      "alert-failed": 0,
    });
  });

  it("shows the same counts in the JSON summary and the human summary and status", () => {
    const summary = JSON.parse(jsonLine({ type: "local-summary", ...totals }) as string);
    expect(summary).toEqual({ type: "local-summary", ...totals });
    expect(summaryLine(totals)).toBe(
      "Summary: 9 events read, 1 alerts, 1 suppressed, 0 stale, 0 rejected, 0 failed, 0 set aside; " +
        "Offline 2 scheduled, 1 confirmed, 1 suppressed, 0 cancelled; " +
        "0 acknowledged, 0 levels escalated, 0 cancelled by an acknowledgement; " +
        "evidence 1 stored, 0 unavailable, 0 failed, 0 pending (0 parked, 0 woken, 0 at risk); 1 problems.",
    );
    expect(humanView(summary, totals, "").print).toBe(summaryLine(totals));
    expect(statusLine(totals)).toBe(
      "events 9 | alerts 1 | suppressed 2 | evidence 0 pending, 1 stored | lag 3 s",
    );
  });

  it("shows parked, woken and at-risk evidence as lines of their own, and --json types", () => {
    const shock = alertIds("1003", "gsensor");
    const waiting: LocalLine[] = [
      {
        type: "evidence-parked",
        ...shock,
        offlineSince: "2026-11-23T09:00:00.000Z",
        keptUntil: "2026-11-30T08:50:00.000Z",
        retentionDays: 7,
      },
      {
        type: "evidence-at-risk",
        ...shock,
        offlineSince: "2026-11-23T09:00:00.000Z",
        keptUntil: "2026-11-30T08:50:00.000Z",
        retentionDays: 7,
        recipients: 2,
      },
      { type: "evidence-woken", ...shock, by: "online-event", parkedAt: "2026-11-23T09:00:00.000Z" },
    ];
    expect(waiting.map((line) => humanView(line, emptyTotals(), "09:00:00").print)).toEqual([
      "09:00:00 EVIDENCE PARKED gsensor #1003 device 0011778082: the vehicle is offline (since 2026-11-23T09:00:00.000Z); waiting for it until 2026-11-30T08:50:00.000Z (card keeps ~7 days)",
      "09:00:00 FOOTAGE AT RISK gsensor #1003 device 0011778082: offline since 2026-11-23T09:00:00.000Z, overwritten after 2026-11-30T08:50:00.000Z; 2 recipient(s) told",
      "09:00:00 EVIDENCE WOKEN gsensor #1003 device 0011778082: the vehicle is online again (its Online event), fetching",
    ]);
    expect(waiting.map((line) => JSON.parse(jsonLine(line) as string).type)).toEqual([
      "evidence-parked",
      "evidence-at-risk",
      "evidence-woken",
    ]);
    const totals = waiting.reduce(tally, emptyTotals());
    expect(summaryLine(totals)).toContain("0 pending (1 parked, 1 woken, 1 at risk)");
  });

  it("shows and counts the Offline alert suppressed by the cooldown after a confirmation", () => {
    const suppressed = lines.find((line) => line.type === "offline-suppressed") as LocalLine;
    expect(humanView(suppressed, totals, "09:00:00").print).toBe(
      "09:00:00 offline-suppressed offline #1004 device 0011778082",
    );
    expect(JSON.parse(jsonLine(suppressed) as string)).toEqual(suppressed);
    expect(tally(emptyTotals(), suppressed).observations["offline-suppressed"]).toBe(1);
  });

  it("prints every line but download progress as JSON, bigint-safe; the live view shows progress in place", () => {
    const printed = lines.map(jsonLine).filter((text) => text !== undefined);
    expect(printed).toHaveLength(lines.length - 1);
    expect(printed.map((text) => JSON.parse(text).type)).not.toContain("evidence-progress");
    const alert = lines[2] as Extract<Observation, { type: "alert-published" }>;
    const withBigint = { ...alert, body: { ...alert.body, big: 2n ** 64n } };
    expect(JSON.parse(jsonLine(withBigint) as string).body.big).toBe("18446744073709551616");
    const progress = lines.find((line) => line.type === "evidence-progress") as LocalLine;
    expect(humanView(progress, totals, "")).toEqual({ status: "fetching evidence/y/ch1.mp4: 0.0/0.0 MB" });
    // A block: what, which vehicle; when, where and how fast; where it went, to how many per channel.
    expect(humanView(alert, totals, "t").print).toBe(
      "t ALERT [critical] gsensor #1002 TR-AE 6733 (no driver)\n" +
        "         2026-11-23 08:50:00 UTC at position unknown, speed unknown\n" +
        "         local · to everyone; sent: email 2 · sms 1",
    );
    // --verbose: with the SMS as sent.
    expect(humanView(alert, totals, "t", { verbose: true }).print?.split("\n").at(-1)).toBe(
      "         SMS: CRITICAL GSensor - TR-AE 6733",
    );
    expect(JSON.parse(jsonLine(alert) as string)).toMatchObject({ position: null, speedKmh: null });
  });

  it("shows each alert's account, the groups it went to, held or not, and how many it went to per channel; --json carries them as observed", () => {
    const alert = lines[2] as Extract<Observation, { type: "alert-published" }>;
    const routed = {
      ...alert,
      account: "north",
      groups: ["north-depot", "night-shift"],
      held: ["ops-digest"],
      recipients: { email: 2, sms: 2, smsCapped: 1, targets: ["local-webhook"] },
    };
    expect(humanView(routed, emptyTotals(), "t").print?.split("\n")[2]).toBe(
      "         north · to north-depot, night-shift (held: ops-digest); sent: email 2 · sms 2 · 1 past the SMS cap · targets local-webhook",
    );
    const allHeld = { ...routed, groups: [], recipients: { email: 0, sms: 0, smsCapped: 0, targets: [] } };
    expect(humanView(allHeld, emptyTotals(), "t").print?.split("\n")[2]).toBe(
      "         north · to no group now (held: ops-digest); sent: nobody now",
    );
    expect(routeText({ account: "south", groups: [], held: ["night-shift"] })).toBe(
      "south · to no group now (held: night-shift)",
    );
    expect(routeText({ account: "south", groups: [], held: [] })).toBe("south · unrouted (to ops)");
    expect(JSON.parse(jsonLine(routed) as string)).toMatchObject({
      account: "north",
      groups: ["north-depot", "night-shift"],
      held: ["ops-digest"],
    });
    // Who got what, with --verbose: a line per message a recipient's subscription received; by
    // default the alert's block counts them instead (--json carries every one).
    const notified: LocalLine = {
      type: "notified",
      channel: "email",
      recipient: "north.manager@example.test",
      kind: "alert",
      alertId: "north:1002:gsensor",
      subject: "CRITICAL GSensor",
    };
    expect(humanView(notified, emptyTotals(), "t", { verbose: true }).print).toBe(
      "t TO north.manager@example.test (email): CRITICAL GSensor [north:1002:gsensor]",
    );
    expect(humanView(notified, emptyTotals(), "t")).toEqual({});
    expect(JSON.parse(jsonLine(notified) as string)).toEqual(notified);
  });

  it("shows where the vehicle was at the event, where that came from, and its speed", () => {
    const alert = lines[2] as Extract<Observation, { type: "alert-published" }>;
    const placed = {
      ...alert,
      body: {
        ...alert.body,
        position: {
          lat: 52.51234,
          lng: 13.4,
          source: "track",
          fixtime: "2026-11-23T08:50:00.000Z",
          url: "u",
        },
        speedKmh: 87.6,
      },
    } as const;
    expect(humanView(placed, totals, "t").print?.split("\n")[1]).toBe(
      "         2026-11-23 08:50:00 UTC at 52.5123,13.4000 (track), 88 km/h",
    );
    expect(JSON.parse(jsonLine(placed) as string)).toMatchObject({
      position: { lat: 52.51234, lng: 13.4, source: "track" },
      speedKmh: 87.6,
    });
  });

  it("shows an acknowledgement, an escalation and a cancelled level in a line each, and passes them through --json", () => {
    const crash = alertIds("1009", "crash");
    const acknowledged: LocalLine = {
      type: "alert-acknowledged",
      ...crash,
      at: "2026-11-23T09:12:00.000Z",
      tokenId: "tok-1",
    };
    const escalated: LocalLine = {
      type: "alert-escalated",
      ...crash,
      level: 1,
      levels: 2,
      unacknowledgedSeconds: 600,
      link: "http://127.0.0.1:4000/i/AAAAAAAAAAAAAAAAAAAAAA",
    };
    const cancelled: LocalLine = { type: "escalation-cancelled", ...crash, level: 2, reason: "acknowledged" };
    expect([acknowledged, escalated, cancelled].map((line) => humanView(line, totals, "t").print)).toEqual([
      "t acknowledged crash #1009 device 0011778082 at 2026-11-23T09:12:00.000Z (link tok-1)",
      "t ESCALATED crash #1009 device 0011778082 to level 1 of 2: not acknowledged after 10 min\n         Link: http://127.0.0.1:4000/i/AAAAAAAAAAAAAAAAAAAAAA",
      "t escalation-cancelled crash #1009 device 0011778082: level 2 not sent (acknowledged)",
    ]);
    for (const line of [acknowledged, escalated, cancelled]) {
      expect(JSON.parse(jsonLine(line) as string)).toEqual(line);
    }
    const counted = [acknowledged, escalated, cancelled].reduce(tally, emptyTotals());
    expect(summaryLine(counted)).toContain(
      "1 acknowledged, 1 levels escalated, 1 cancelled by an acknowledgement;",
    );
  });

  it("says when a device's GPS history could not place its alerts", () => {
    const line: LocalLine = {
      type: "gps-history-unavailable",
      account: "local",
      deviceid: "D1",
      reason: "timeout",
      alerts: 2,
    };
    expect(humanView(line, totals, "t").print).toBe(
      "t gps history unavailable for device D1 (timeout): 2 alert(s) use the next best position",
    );
  });
});
