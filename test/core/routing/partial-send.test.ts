import type { Observation } from "@fleet-alerts/core";
import {
  type AlertPublisher,
  type AlertRecord,
  deliverAlerts,
  newAlertRecord,
  type OutgoingAlert,
  type PublishOutcome,
  RecordLedger,
} from "@fleet-alerts/core/alerts";
import type { AlertRouter, Route } from "@fleet-alerts/core/routing";
import { describe, expect, it } from "vitest";
import { FakeAlertRecords } from "../../support/fakes/alerts.js";
import { FakeJobQueue } from "../../support/fakes/queue.js";
import { fakeSetAside } from "../../support/fakes/set-aside.js";
import { eventAt, fleetDevice, gsensor, INCIDENT_AT_EVENT } from "../alerts/fixtures.js";

const NOW = Date.parse("2026-03-29T10:00:00.000Z");
const ROUTE: Route = {
  groups: ["a", "b"],
  held: [],
  email: ["e-1111111111111111", "e-2222222222222222"],
  sms: ["s-3333333333333333"],
  smsCapped: [],
  targets: [],
};

/** Accepts every recipient's message but one's, whose fails (transiently) while `failing` is set. */
class FlakyPublisher implements AlertPublisher {
  readonly delivered: string[] = [];
  failing = true;
  async publish(alerts: readonly OutgoingAlert[]): Promise<PublishOutcome[]> {
    return alerts.map((alert) => {
      const to = alert.to ?? [];
      const ok = to.filter((recipient) => !(this.failing && recipient === "e-2222222222222222"));
      this.delivered.push(...ok);
      return ok.length === to.length
        ? { alertId: alert.alertId, ok: true, messageId: "m-1" }
        : { alertId: alert.alertId, ok: false, permanent: false, reason: "InternalError", sentTo: ok };
    });
  }
}

describe("a partial publish", () => {
  it("is retried to the recipients who did not get it only, by the route first decided", async () => {
    const alerts = new FakeAlertRecords();
    const routes: string[] = [];
    const router: AlertRouter = {
      route: async (alert) => {
        routes.push(alert.alertId);
        return structuredClone(ROUTE);
      },
    };
    const publisher = new FlakyPublisher();
    const observations: Observation[] = [];
    const deps = {
      alerts,
      publisher,
      router,
      evidenceQueue: new FakeJobQueue(),
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      observer: { observe: (observation: Observation) => void observations.push(observation) },
      now: () => NOW,
      setAside: fakeSetAside({ observer: { observe: () => undefined }, logger: console, now: () => NOW })
        .setAside,
    };
    await alerts.record(
      newAlertRecord({
        account: "east",
        event: eventAt("2026-03-29T09:59:55.000Z"),
        rule: gsensor,
        status: "pending",
        suppressedBefore: 0,
        device: fleetDevice(),
        incident: INCIDENT_AT_EVENT,
        fleetTimeZone: "Europe/Berlin",
      }),
      NOW,
    );
    const counts = { alertsPublished: 0, alertsFailed: 0 };
    const ledger = new RecordLedger(alerts, { now: () => NOW });
    await expect(deliverAlerts(alerts.all(), deps, counts, ledger)).rejects.toThrow(/next run retries/);
    const kept = alerts.all()[0] as AlertRecord;
    expect(kept).toMatchObject({ status: "pending", route: ROUTE });
    expect([...(kept.sentTo ?? [])].sort()).toEqual(["e-1111111111111111", "s-3333333333333333"]);

    publisher.failing = false;
    await deliverAlerts(alerts.all(), deps, counts, ledger);
    expect(publisher.delivered.sort()).toEqual([
      "e-1111111111111111",
      "e-2222222222222222",
      "s-3333333333333333",
    ]);
    expect(routes).toHaveLength(1);
    expect(alerts.all()[0]).toMatchObject({ status: "published", route: ROUTE });
    expect(observations.filter((o) => o.type === "alert-published")).toHaveLength(1);
  });
});
