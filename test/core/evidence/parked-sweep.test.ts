import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { Observation } from "@fleet-alerts/core";
import { AlertStore, SnsAlertPublisher } from "@fleet-alerts/core/alerts";
import type { OnlineDevice } from "@fleet-alerts/core/devicecloud";
import {
  EVIDENCE_CLAIM_LEASE_MS,
  type EvidenceJob,
  evidenceJobSchema,
  ParkedJobStore,
  type SweepDependencies,
  sweepParkedEvidence,
} from "@fleet-alerts/core/evidence";
import { NoticeClaims } from "@fleet-alerts/core/notices";
import { SqsSender } from "@fleet-alerts/core/queue";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";
import { gsensorJob } from "../../support/fakes/evidence.js";

const DAY_MS = 86_400_000;
const EVENT_MS = Date.parse("2026-03-02T10:15:30Z");
const ACCOUNT = "east";

let emulators: Emulators;
let parked: ParkedJobStore;
let alerts: AlertStore;
let serial = 0;
beforeAll(async () => {
  emulators = await startEmulators();
  const table = { documents: emulators.clients.documents, tableName: emulators.tableName };
  parked = new ParkedJobStore(table);
  alerts = new AlertStore(table);
});
afterAll(() => emulators.close());

/** A job of a new alert of `deviceid` (its record written, routed to nobody yet: the ops' `unrouted`). */
async function jobOf(deviceid: string): Promise<EvidenceJob> {
  const serialno = BigInt(++serial);
  const eventtime = new Date(EVENT_MS).toISOString();
  await alerts.record(
    {
      account: ACCOUNT,
      serialno,
      ruleId: "shock",
      deviceid,
      appdevid: 16,
      eventtime,
      severity: "critical",
      status: "published",
    },
    EVENT_MS,
  );
  return gsensorJob(ACCOUNT, serialno, deviceid, EVENT_MS);
}

/** Parked at the event, waited for two days (a card of two days' retention). */
const park = async (job: EvidenceJob) =>
  parked.park({
    job,
    parkedAtMs: EVENT_MS,
    offlineSinceMs: EVENT_MS,
    keptUntilMs: EVENT_MS + 2 * DAY_MS,
    retentionDays: 2,
  });

const parkedIds = async () => {
  const ids: string[] = [];
  for await (const page of parked.ofAccount(ACCOUNT)) ids.push(...page.map((item) => item.job.alertId));
  return ids.sort();
};

async function queued(): Promise<EvidenceJob[]> {
  const { Messages } = await emulators.clients.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: emulators.queues.evidence,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 0,
    }),
  );
  return (Messages ?? []).map((message) => evidenceJobSchema.parse(JSON.parse(message.Body as string)));
}

/** The sweep's world: the device cloud's online list, the observations, its business and wall clocks. */
function sweepWorld(online: string[]) {
  const seen: Observation[] = [];
  const calls = { onlineList: 0 };
  const clock = { nowMs: EVENT_MS, wallMs: Date.parse("2027-01-01T00:00:00Z") };
  const deps: SweepDependencies = {
    parked,
    client: {
      onlineDevices: async () => {
        calls.onlineList++;
        return online.map((deviceid) => ({ deviceid, status: 1, nmea: "", updatetime: "" }) as OnlineDevice);
      },
    },
    requeue: new SqsSender(emulators.clients.sqs, emulators.queues.evidence),
    alerts,
    publisher: new SnsAlertPublisher(emulators.clients.sns, emulators.topicArn),
    claims: new NoticeClaims({ documents: emulators.clients.documents, tableName: emulators.tableName }),
    observer: { observe: (observation) => void seen.push(observation) },
    now: () => clock.nowMs,
    wallClock: () => clock.wallMs,
  };
  return { deps, seen, calls, clock };
}

beforeEach(async () => {
  for await (const page of parked.ofAccount(ACCOUNT)) for (const item of page) await parked.remove(item);
  await queued();
  await emulators.readInbox();
});

describe("parked evidence in the table", () => {
  it("keeps the first park of a job, and one device's jobs apart from another's whose id its key begins with", async () => {
    const [van, vanHash] = [await jobOf("van"), await jobOf("van#1")];
    await park(van);
    const again = await parked.park({
      job: van,
      parkedAtMs: EVENT_MS + DAY_MS,
      offlineSinceMs: EVENT_MS + DAY_MS,
      keptUntilMs: EVENT_MS + 9 * DAY_MS,
      retentionDays: 9,
    });
    expect(again).toMatchObject({
      offlineSinceMs: EVENT_MS,
      keptUntilMs: EVENT_MS + 2 * DAY_MS,
      retentionDays: 2,
    });
    expect(await parked.anyOf(ACCOUNT)).toBe(true);
    expect(await parked.anyOf("elsewhere")).toBe(false);
    await park(vanHash);
    const ofVan: string[] = [];
    for await (const page of parked.ofDevice(ACCOUNT, "van"))
      ofVan.push(...page.map((item) => item.job.alertId));
    expect(ofVan).toEqual([van.alertId]);
    expect(await parkedIds()).toEqual([van.alertId, vanHash.alertId].sort());
  });

  it("writes no item for a job gone before its at-risk mark", async () => {
    const job = await jobOf("gone");
    const item = await park(job);
    await parked.remove(item);
    await parked.markAtRiskNoticeSent(item);
    const { Items } = await emulators.clients.documents.send(
      new ScanCommand({ TableName: emulators.tableName }),
    );
    expect((Items ?? []).filter((found) => String(found.sk).startsWith("PARKED#"))).toEqual([]);
  });
});

describe("the parked-evidence sweep", () => {
  it("asks the device cloud nothing for an account with nothing parked", async () => {
    const { deps, calls } = sweepWorld([]);
    expect(await sweepParkedEvidence(ACCOUNT, deps)).toEqual({ parked: 0, woken: 0, givenUp: 0, atRisk: 0 });
    expect(calls.onlineList).toBe(0);
  });

  it("with one online-list call, wakes the jobs of devices online and leaves the others parked", async () => {
    const back = [await jobOf("back"), await jobOf("back")];
    const away = await jobOf("away");
    for (const job of [...back, away]) await park(job);
    const { deps, calls, seen } = sweepWorld(["back", "unrelated"]);
    expect(await sweepParkedEvidence(ACCOUNT, deps)).toMatchObject({ woken: 2, parked: 1, atRisk: 0 });
    expect(calls.onlineList).toBe(1);
    expect((await queued()).map((job) => job.alertId).sort()).toEqual(back.map((job) => job.alertId).sort());
    expect(await parkedIds()).toEqual([away.alertId]);
    expect(seen.filter((seen) => seen.type === "evidence-woken")).toEqual(
      back.map((job) => expect.objectContaining({ alertId: job.alertId, by: "online-list" })),
    );
  });

  it("tells the alert's recipients once that its footage is at risk, past half of its wait", async () => {
    const job = await jobOf("away");
    await park(job);
    const { deps, clock, seen } = sweepWorld([]);
    clock.nowMs = EVENT_MS + DAY_MS - 60_000;
    expect(await sweepParkedEvidence(ACCOUNT, deps)).toMatchObject({ atRisk: 0, parked: 1 });
    expect(await emulators.readInbox({ waitMs: 300 })).toEqual([]);
    clock.nowMs = EVENT_MS + DAY_MS + 60_000;
    expect(await sweepParkedEvidence(ACCOUNT, deps)).toMatchObject({ atRisk: 1, parked: 1 });
    const [notice, ...more] = await emulators.readInbox({ atLeast: 1 });
    expect(more).toEqual([]);
    expect(notice?.attributes).toMatchObject({
      kind: { value: "evidence" },
      evidence_status: { value: "at-risk" },
      alert_id: { value: job.alertId },
      to: { value: "unrouted" },
    });
    expect(notice?.bodies?.email).toContain(
      "before 2026-03-04 10:15:30 UTC, the footage will be overwritten",
    );
    expect(seen.filter((seen) => seen.type === "evidence-at-risk")).toHaveLength(1);
    // Marked on the parked item: later sweeps send nothing, and read no claim for it.
    clock.nowMs += 3_600_000;
    expect(await sweepParkedEvidence(ACCOUNT, deps)).toMatchObject({ atRisk: 0, parked: 1 });
    expect(await emulators.readInbox({ waitMs: 300 })).toEqual([]);
  });

  it("sends the at-risk notice after a failed publish, once, when the claim's wall-clock lease has run out", async () => {
    const job = await jobOf("away");
    await park(job);
    const { deps, clock } = sweepWorld([]);
    clock.nowMs = EVENT_MS + 1.5 * DAY_MS;
    const failing = { ...deps, publisher: { publish: async () => Promise.reject(new Error("SNS is down")) } };
    await expect(sweepParkedEvidence(ACCOUNT, failing)).rejects.toThrow("SNS is down");
    // The claim stands until its lease runs out on the wall clock, however far the business clock
    // runs (the local mode's, 60 to 300 times faster): a sweep meanwhile sends nothing.
    clock.nowMs += 6 * 3_600_000;
    clock.wallMs += EVIDENCE_CLAIM_LEASE_MS - 1;
    expect(await sweepParkedEvidence(ACCOUNT, deps)).toMatchObject({ atRisk: 0 });
    expect(await emulators.readInbox({ waitMs: 300 })).toEqual([]);
    clock.wallMs += 1;
    expect(await sweepParkedEvidence(ACCOUNT, deps)).toMatchObject({ atRisk: 1 });
    const [notice, ...more] = await emulators.readInbox({ atLeast: 1 });
    expect(more).toEqual([]);
    expect(notice?.attributes.notice_id).toEqual({
      type: "String",
      value: `evidence-at-risk:${job.alertId}`,
    });
  });

  it("sends the at-risk notice once when two sweeps run at once", async () => {
    await park(await jobOf("away"));
    const { deps, clock } = sweepWorld([]);
    clock.nowMs = EVENT_MS + 1.5 * DAY_MS;
    const tallies = await Promise.all([
      sweepParkedEvidence(ACCOUNT, deps),
      sweepParkedEvidence(ACCOUNT, deps),
    ]);
    expect(tallies.map((tally) => tally.atRisk).sort()).toEqual([0, 1]);
    expect(await emulators.readInbox({ atLeast: 1 })).toHaveLength(1);
    expect(await emulators.readInbox({ waitMs: 300 })).toEqual([]);
  });

  it("gives a job up past its deadline: sent back marked overwritten, no longer parked", async () => {
    const job = await jobOf("away");
    await park(job);
    const { deps, clock } = sweepWorld([]);
    clock.nowMs = EVENT_MS + 2 * DAY_MS;
    expect(await sweepParkedEvidence(ACCOUNT, deps)).toMatchObject({ givenUp: 1, parked: 0 });
    expect(await queued()).toEqual([
      {
        ...job,
        overwritten: {
          offlineSince: new Date(EVENT_MS).toISOString(),
          keptUntil: new Date(EVENT_MS + 2 * DAY_MS).toISOString(),
          retentionDays: 2,
        },
      },
    ]);
    expect(await parkedIds()).toEqual([]);
  });
});
