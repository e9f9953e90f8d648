import {
  type AlertRecord,
  buildAlertMessage,
  handOn,
  newAlertRecord,
  RecordLedger,
  withLinkFilledOrDropped,
} from "@fleet-alerts/core/alerts";
import { escalationMessage, scheduleEscalations } from "@fleet-alerts/core/escalation";
import { describe, expect, it } from "vitest";
import { FAKE_ROUTE, FakeAlertRecords, FakeJobQueue } from "../../support/fakes/index.js";
import { fakeSetAside } from "../../support/fakes/set-aside.js";
import { AWKWARD_NAMES, context, eventAt, fleetDevice, INCIDENT_AT_EVENT } from "../alerts/fixtures.js";
import { FIRED_AT_MS, ruleWith } from "./harness.js";

async function publishedRecord(alerts: FakeAlertRecords, escalate?: unknown): Promise<AlertRecord> {
  const rule = ruleWith(escalate);
  const record = newAlertRecord({
    account: "east",
    event: eventAt("2026-03-29T01:30:00.000Z"),
    rule,
    status: "pending",
    suppressedBefore: 0,
    device: fleetDevice(),
    incident: INCIDENT_AT_EVENT,
    fleetTimeZone: "Europe/Berlin",
  });
  await alerts.record(record, FIRED_AT_MS);
  const stored = (await alerts.get("east", record.serialno, rule.id)) as AlertRecord;
  await alerts.markPublished(stored, "m-1", FIRED_AT_MS, FAKE_ROUTE);
  return (await alerts.get("east", record.serialno, rule.id)) as AlertRecord;
}

describe("scheduling escalations after publishing", () => {
  it("sends level 1 once, delayed by the policy: a replay of the poll finds it handed on", async () => {
    const alerts = new FakeAlertRecords();
    const queue = new FakeJobQueue();
    const now = () => FIRED_AT_MS + 5000;
    const deps = handingOn(alerts, queue, now);
    const ledger = new RecordLedger(alerts, { now });
    const record = await publishedRecord(alerts, { after: "10m", levels: 2 });
    await handOn([record], deps, { evidenceJobs: 0 }, ledger);
    await handOn(alerts.all(), deps, { evidenceJobs: 0 }, ledger);
    expect(queue.sent.map((message) => message.delaySeconds)).toEqual([595]);
    expect(queue.jobs()).toEqual([
      {
        version: 1,
        alertId: record.alertId,
        account: "east",
        serialno: record.serialno.toString(),
        ruleId: "crash",
        level: 1,
        afterSeconds: 600,
        firedAtMs: FIRED_AT_MS,
      },
    ]);
  });

  it("sends nothing without an escalation queue, or for an alert whose rule does not escalate", async () => {
    const queue = new FakeJobQueue();
    await scheduleEscalations([await publishedRecord(new FakeAlertRecords(), { after: "10m", levels: 1 })], {
      now: () => FIRED_AT_MS,
    });
    await scheduleEscalations([await publishedRecord(new FakeAlertRecords())], {
      escalationQueue: queue,
      now: () => FIRED_AT_MS,
    });
    expect(queue.sent).toEqual([]);
  });
});

/** What handing on needs here: the queues, a silent logger, no observer of note. */
function handingOn(alerts: FakeAlertRecords, escalationQueue: FakeJobQueue, now: () => number) {
  return {
    alerts,
    publisher: { publish: async () => [] },
    evidenceQueue: new FakeJobQueue(),
    escalationQueue,
    router: { route: async () => FAKE_ROUTE },
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    observer: { observe: () => undefined },
    now,
    setAside: fakeSetAside({ observer: { observe: () => undefined }, logger: console, now }).setAside,
  };
}

describe("the escalation message", () => {
  it("keeps the subject and SMS within their limits, whatever the names", () => {
    for (const [vehicleid, drivername] of AWKWARD_NAMES) {
      const alert = buildAlertMessage(context({ device: fleetDevice({ vehicleid, drivername }) }));
      const message = escalationMessage(alert, { level: 3, levels: 3, unacknowledgedSeconds: 5400 });
      expect(message.subject.length).toBeLessThanOrEqual(99);
      expect(message.subject).toMatch(/^Not acknowledged after 1 h 30 min \(escalation level 3 of 3\): /);
      expect(message.sms.length).toBeLessThanOrEqual(160);
      expect(message.sms).toMatch(/^Not acknowledged after 1 h 30 min \(level 3\/3\): /);
      expect(
        message.email.startsWith("Not acknowledged after 1 h 30 min (escalation level 3 of 3).\n\n"),
      ).toBe(true);
      expect(JSON.parse(message.default).escalation).toEqual({
        level: 3,
        levels: 3,
        unacknowledgedSeconds: 5400,
      });
      expect(message.attributes.kind?.StringValue).toBe("escalation");
      expect(message.attributes.level?.StringValue).toBe("3");
    }
  });

  it("keeps the alert's incident link whole at the end of the SMS, filled with the token, or leaves it out", () => {
    const base = "https://abcdefghij.execute-api.eu-central-1.amazonaws.com";
    const token = "AbCdEfGhIjKlMnOpQrStUv";
    for (const [vehicleid, drivername] of AWKWARD_NAMES) {
      const alert = buildAlertMessage(
        context({ device: fleetDevice({ vehicleid, drivername }), linkBaseUrl: base }),
      );
      const step = { level: 2, levels: 2, unacknowledgedSeconds: 1200 };
      const filled = escalationMessage(withLinkFilledOrDropped(alert, token), step);
      expect(filled.sms.length).toBeLessThanOrEqual(160);
      expect(filled.sms.endsWith(` ${base}/i/${token}`)).toBe(true);
      expect(filled.email).toContain(`${base}/i/${token}`);
      const dropped = escalationMessage(withLinkFilledOrDropped(alert, undefined), step);
      for (const text of [dropped.sms, dropped.email]) expect(text).not.toContain("/i/");
    }
  });
});
