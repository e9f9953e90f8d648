import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { Observation } from "@fleet-alerts/core";
import {
  AlertLinks,
  type AlertPublisher,
  type AlertRecord,
  type AlertRecords,
  AlertStore,
  deliverAlerts,
  newAlertRecord,
  type OutgoingAlert,
  RECORD_CLAIM_LEASE_MS,
  RecordLedger,
  SnsAlertPublisher,
} from "@fleet-alerts/core/alerts";
import type { Route } from "@fleet-alerts/core/routing";
import { ShareStore } from "@fleet-alerts/core/share";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";
import { FakeJobQueue } from "../../support/fakes/queue.js";
import { FakeRouter } from "../../support/fakes/routing.js";
import { fakeSetAside } from "../../support/fakes/set-aside.js";
import { eventAt, fleetDevice, gsensor, INCIDENT_AT_EVENT } from "./fixtures.js";

const NOW = Date.parse("2026-03-29T01:30:05.000Z");
const HOUR_MS = 3_600_000;
const BASE = "https://alerts.example.com";
/** The alert's live links: one page holds them all here. */
const liveLinks = async (alertId: string, nowMs: number) =>
  (await shares.list(alertId, nowMs, { limit: 100 })).entries;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let emulators: Emulators;
let alerts: AlertStore;
let shares: ShareStore;
beforeAll(async () => {
  emulators = await startEmulators();
  const table = { documents: emulators.clients.documents, tableName: emulators.tableName };
  alerts = new AlertStore(table);
  shares = new ShareStore(table);
});
afterAll(() => emulators.close());

let serial = 7_000_000n;

/** A pending alert recorded as the poller records it, rendered with a link or not. */
async function recordedAlert(linkBaseUrl?: string): Promise<AlertRecord> {
  serial += 1n;
  await alerts.record(
    newAlertRecord({
      account: "east",
      event: eventAt("2026-03-29T01:30:00.000Z", { serialno: serial.toString() }),
      rule: gsensor,
      status: "pending",
      suppressedBefore: 0,
      device: fleetDevice(),
      incident: INCIDENT_AT_EVENT,
      fleetTimeZone: "Europe/Berlin",
      ...(linkBaseUrl && { linkBaseUrl }),
    }),
    NOW,
  );
  return (await alerts.get("east", serial, gsensor.id)) as AlertRecord;
}

/** The SNS publisher, recording what it sent; it fails before sending while `failures` lasts. */
function recordingPublisher(failures = 0) {
  const sns = new SnsAlertPublisher(emulators.clients.sns, emulators.topicArn);
  const sent: OutgoingAlert[] = [];
  let left = failures;
  const publisher: AlertPublisher = {
    async publish(outgoing) {
      if (left-- > 0) throw new Error("crash before publishing");
      sent.push(...outgoing);
      return sns.publish(outgoing);
    },
  };
  return { publisher, sent };
}

/** The alert store, crashing after the topic accepted the message and before it is marked. */
function crashingOnMark(failures: number): AlertRecords {
  let left = failures;
  return Object.assign(Object.create(alerts) as AlertRecords, {
    markPublished: (alert: AlertRecord, messageId: string | undefined, nowMs: number, route: Route) => {
      if (left-- > 0) return Promise.reject(new Error("crash before marking"));
      return alerts.markPublished(alert, messageId, nowMs, route);
    },
  });
}

function deliver(
  record: AlertRecord,
  overrides: { publisher: AlertPublisher; alerts?: AlertRecords; wallClock?: () => number },
  withLinks = true,
) {
  const observations: Observation[] = [];
  const observer = { observe: (observation: Observation) => void observations.push(observation) };
  const deps = {
    alerts,
    evidenceQueue: new FakeJobQueue(),
    router: new FakeRouter(),
    logger: silent,
    observer,
    now: () => NOW,
    setAside: fakeSetAside({ observer, logger: silent, now: () => NOW }).setAside,
    ...(withLinks && {
      alertLinks: new AlertLinks(shares, { baseUrl: BASE, secret: "k".repeat(32), lifetimeMs: 72 * HOUR_MS }),
    }),
    ...overrides,
  };
  return {
    observations,
    done: deliverAlerts(
      [record],
      deps,
      { alertsPublished: 0, alertsFailed: 0 },
      new RecordLedger(deps.alerts, { now: () => NOW, wallClock: deps.wallClock }),
    ),
  };
}

async function tableText(): Promise<string> {
  const { Items = [] } = await emulators.clients.documents.send(
    new ScanCommand({ TableName: emulators.tableName, ConsistentRead: true }),
  );
  return JSON.stringify(Items);
}

const tokenOf = (link: string) => link.slice(`${BASE}/i/`.length);
/** A delivery's clock once a crashed delivery's claim on the record has run out. */
const afterTheClaim = () => Date.now() + RECORD_CLAIM_LEASE_MS + 1;

describe("an alert's incident link", () => {
  it("goes out in its email and SMS and opens the alert, view+ack, for SHARE_LINK_HOURS", async () => {
    const record = await recordedAlert(BASE);
    const { publisher, sent } = recordingPublisher();
    const { observations, done } = deliver(record, { publisher });
    await done;
    const [published] = observations;
    expect(published?.type).toBe("alert-published");
    const link = published?.type === "alert-published" ? (published.link as string) : "";
    expect(link).toMatch(/^https:\/\/alerts\.example\.com\/i\/[A-Za-z0-9_-]{22}$/);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.message.sms.endsWith(` ${link}`)).toBe(true);
    expect(sent[0]?.message.sms.length).toBeLessThanOrEqual(160);
    expect(sent[0]?.message.email).toContain(link);
    expect(published?.type === "alert-published" && published.sms).toBe(sent[0]?.message.sms);

    const grant = await shares.resolve(tokenOf(link), NOW);
    expect(grant).toMatchObject({
      alertId: record.alertId,
      scope: "view+ack",
      createdBy: "alert",
      expiresAtMs: NOW + 72 * HOUR_MS,
    });
    expect(await shares.resolve(tokenOf(link), NOW + 72 * HOUR_MS)).toBeUndefined();
    expect((await alerts.get("east", record.serialno, record.ruleId))?.status).toBe("published");
    expect(await tableText()).not.toContain(tokenOf(link));
  });

  it("is the same after a crash between the grant and the publish, and goes out once", async () => {
    const record = await recordedAlert(BASE);
    const { publisher, sent } = recordingPublisher(1);
    await expect(deliver(record, { publisher }).done).rejects.toThrow("crash before publishing");
    expect(await liveLinks(record.alertId, NOW)).toHaveLength(1); // granted, not sent
    const stored = (await alerts.get("east", record.serialno, record.ruleId)) as AlertRecord;
    expect(stored.status).toBe("pending");
    // The crashed delivery's claim holds the record for its lease; the replay comes after it.
    const replay = deliver(stored, { publisher, wallClock: afterTheClaim });
    await replay.done;
    expect(sent).toHaveLength(1);
    const link =
      replay.observations[0]?.type === "alert-published" ? (replay.observations[0].link as string) : "";
    expect(sent[0]?.message.sms).toContain(link);
    expect((await shares.resolve(tokenOf(link), NOW))?.alertId).toBe(record.alertId);
    expect(await liveLinks(record.alertId, NOW)).toHaveLength(1);
    expect(await tableText()).not.toContain(tokenOf(link));
  });

  it("is the same after a crash between the publish and the mark: the replay resends that link, one grant", async () => {
    const record = await recordedAlert(BASE);
    const { publisher, sent } = recordingPublisher();
    await expect(deliver(record, { publisher, alerts: crashingOnMark(1) }).done).rejects.toThrow(
      "crash before marking",
    );
    const stored = (await alerts.get("east", record.serialno, record.ruleId)) as AlertRecord;
    expect(stored.status).toBe("pending");
    expect(stored.message?.sms).toContain("/i/{token}"); // the record keeps the slot, never the token
    await deliver(stored, { publisher, wallClock: afterTheClaim }).done;
    // The documented window: the topic got it twice, the same link both times.
    expect(sent).toHaveLength(2);
    expect(sent[1]?.message).toEqual(sent[0]?.message);
    expect((await alerts.get("east", record.serialno, record.ruleId))?.status).toBe("published");
    expect(await liveLinks(record.alertId, NOW)).toHaveLength(1);
    const token = /\/i\/([A-Za-z0-9_-]{22})$/.exec(sent[0]?.message.sms ?? "")?.[1] as string;
    expect(await tableText()).not.toContain(token);
  });

  it("is absent without PUBLIC_BASE_URL: the message goes out as recorded, no link granted", async () => {
    const record = await recordedAlert();
    const { publisher, sent } = recordingPublisher();
    const { observations, done } = deliver(record, { publisher }, false);
    await done;
    expect(sent[0]?.message).toEqual(record.message);
    expect(observations[0]).not.toHaveProperty("link");
    expect(await liveLinks(record.alertId, NOW)).toEqual([]);
  });

  it("is never sent as a slot: a message rendered with a link is not published without the secret", async () => {
    const record = await recordedAlert(BASE);
    const { publisher, sent } = recordingPublisher();
    await expect(deliver(record, { publisher }, false).done).rejects.toThrow("SHARE_LINK_SECRET");
    expect(sent).toEqual([]);
  });
});
