import { AlertLinks } from "@fleet-alerts/core/alerts";
import type { DeviceEvent, FleetDevice } from "@fleet-alerts/core/devicecloud";
import { evidenceJobSchema } from "@fleet-alerts/core/evidence";
import {
  type AccountSettings,
  POLL_STEPS,
  type PollerDependencies,
  type PollStep,
  pollAccount,
} from "@fleet-alerts/core/poller";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { fakePollerDependencies } from "../../support/fakes/index.js";

const NOW = Date.parse("2026-01-05T12:00:00Z");
const ACCOUNT = "east";
const START = 1_000n;
const HOUR_MS = 3_600_000;
const SETTINGS: AccountSettings = {
  account: ACCOUNT,
  rules: [
    {
      id: "shock",
      events: [16],
      severity: "critical",
      staleAfterSeconds: 3600,
      evidence: { channels: [1, 2], secondsBefore: 15, secondsAfter: 15 },
    },
    { id: "disk", events: [12], severity: "critical", staleAfterSeconds: 3600 },
  ].map((rule) => ruleSchema.parse(rule)),
  fleetTimeZone: "Europe/Berlin",
  gps: { speedUnit: "km/h", budgetMs: 1_000 },
  linkBaseUrl: "https://alerts.example.com",
};

/**
 * 30 events after START, every third a G-sensor and every fifth a disk error: the first 20 from
 * seven hours ago (a backlog after an outage, stale), the last 10 from the last minutes (sent).
 */
function events(): DeviceEvent[] {
  return Array.from({ length: 30 }, (_, index) => ({
    serialno: START + BigInt(index + 1),
    deviceid: `D${index % 3}`,
    appdevid: index % 3 === 0 ? 16 : index % 5 === 0 ? 12 : 0,
    eventtime: new Date(
      index < 20 ? NOW - 7 * HOUR_MS + index * 60_000 : NOW - (30 - index) * 60_000,
    ).toISOString(),
    ...(index === 3 && { vehiclex: 13.4, vehicley: 52.5 }),
  }));
}

/** A poller over fakes, its cursor at START, the 30 events after it, in chunks of 10; links granted. */
function world() {
  const fakes = fakePollerDependencies(NOW);
  const granted: string[] = [];
  Object.assign(fakes.deps, {
    chunkEvents: 10,
    alertLinks: new AlertLinks(
      {
        createWithToken: async (grant) => {
          granted.push(grant.alertId);
          return { tokenId: grant.alertId } as never;
        },
      },
      { baseUrl: "https://alerts.example.com", secret: "s".repeat(32), lifetimeMs: HOUR_MS },
    ),
  });
  fakes.deps.client.events.push(...events());
  fakes.deps.client.devices = [
    {
      deviceid: "D0",
      vehicleid: "B-AB 123",
      drivername: "Kim",
      gpsdata: { lat: 48.1, lng: 11.6, time: NOW, speedInKmh: 30, trackingAngle: 90 },
    } as FleetDevice,
  ];
  void fakes.deps.cursors.advance(ACCOUNT, undefined, START, NOW, 0);
  return { ...fakes, granted };
}

const poll = (deps: PollerDependencies) =>
  pollAccount(SETTINGS, deps, { deadlineMs: Number.POSITIVE_INFINITY });

const staleShocks = (deps: ReturnType<typeof world>["deps"]) =>
  deps.alerts
    .all()
    .filter((record) => record.status === "stale" && record.ruleId === "shock")
    .map((record) => record.alertId);

const jobIds = (deps: ReturnType<typeof world>["deps"]) =>
  deps.evidenceQueue.jobs<{ alertId: string }>().map((job) => job.alertId);

describe("a stale alert whose rule asks for evidence", () => {
  it("queues one evidence job, with the alert as it would have gone out, and stays stale, not sent", async () => {
    const { deps, granted } = world();
    const summary = await poll(deps);
    expect(summary).toMatchObject({ outcome: "caught-up", cursor: "1030", stale: 9 });

    const stale = staleShocks(deps);
    expect(stale).toHaveLength(7);
    const sent = deps.publisher.acceptedIds();
    for (const id of stale) {
      expect(sent).not.toContain(id);
      // Its message was rendered with a link, but no link is granted until its summary lists it.
      expect(granted).not.toContain(id);
    }
    expect(deps.alerts.all().filter((record) => stale.includes(record.alertId))).toEqual(
      stale.map(() => expect.objectContaining({ status: "stale", evidenceStatus: "pending" })),
    );
    // One job per stale G-sensor alert and per fresh one; none for the disk rule, which wants no video.
    const jobs = deps.evidenceQueue.jobs().map((job) => evidenceJobSchema.parse(job));
    expect(jobs.map((job) => job.alertId).sort()).toEqual(
      deps.alerts
        .all()
        .filter((record) => record.ruleId === "shock")
        .map((record) => record.alertId)
        .sort(),
    );
    expect(summary.evidenceJobs).toBe(jobs.length);

    const first = jobs.find((job) => job.alertId === `${ACCOUNT}:1001:shock`);
    expect(first).toMatchObject({
      channels: [1, 2],
      secondsBefore: 15,
      secondsAfter: 15,
      incidentLink: false,
    });
    // The claim pack's report names the vehicle and driver; the event's own coordinates place it,
    // never the status fix taken seven hours later.
    expect(first?.alert).toMatchObject({ vehicleid: "B-AB 123", drivername: "Kim", position: null });
    const placed = jobs.find((job) => job.alertId === `${ACCOUNT}:1004:shock`);
    expect(placed?.alert?.position).toMatchObject({ lat: 52.5, lng: 13.4, source: "event" });
    // A stale alert costs no GPS lookup: only the last half hour's events are looked up.
    expect(deps.client.gpsRequests.length).toBeGreaterThan(0);
    for (const request of deps.client.gpsRequests)
      expect(Number(request.start) * 1000).toBeGreaterThan(NOW - HOUR_MS);

    expect(await poll(deps)).toMatchObject({ outcome: "caught-up", evidenceJobs: 0 });
    expect(jobIds(deps)).toHaveLength(jobs.length);
  });

  // The first two chunks are stale throughout, the third fresh.
  const crashes = POLL_STEPS.flatMap((step) => [1, 2].map((occurrence) => ({ step, occurrence })));
  it.each(crashes)(
    "a crash at $step (#$occurrence), then a replay: its evidence job is queued once",
    async (crash) => {
      const control = world();
      await poll(control.deps);
      const crashed = world();
      let reached = 0;
      const checkpoint = (step: PollStep) => {
        if (step === crash.step && ++reached === crash.occurrence) throw new Error(`crash at ${step}`);
      };
      await expect(poll({ ...crashed.deps, checkpoint })).rejects.toThrow(`crash at ${crash.step}`);
      expect(await poll(crashed.deps)).toMatchObject({ outcome: "caught-up", cursor: "1030" });

      expect(staleShocks(crashed.deps)).toEqual(staleShocks(control.deps));
      const queued = jobIds(crashed.deps);
      expect([...new Set(queued)].sort()).toEqual(jobIds(control.deps).sort());
      // Between the send and the ledger's note, a crash sends that chunk's jobs again, for stale and sent
      // alerts alike: the evidence function stores one bag per alert (test/core/poller/stale-summary.test.ts).
      if (crash.step !== "jobs-queued") expect(queued).toHaveLength(new Set(queued).size);
      expect(crashed.deps.alerts.all().map((record) => `${record.alertId} ${record.status}`)).toEqual(
        control.deps.alerts.all().map((record) => `${record.alertId} ${record.status}`),
      );
    },
  );
});
