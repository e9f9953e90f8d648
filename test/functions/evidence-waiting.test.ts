import type { Observation } from "@fleet-alerts/core";
import type { AlertStore } from "@fleet-alerts/core/alerts";
import {
  type CurrentManifest,
  collectEvidence,
  type EvidenceJobInput,
  evidenceJobSchema,
  evidenceWindow,
  PARKED_SWEEP_MESSAGE,
} from "@fleet-alerts/core/evidence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvidenceHandler } from "../../packages/functions/src/evidence.js";
import { evidenceSection } from "../../packages/functions/src/incident/evidence-section.js";
import { incidentOf } from "../../packages/functions/src/incident/incident-model.js";
import { incidentPaths } from "../../packages/functions/src/incident/incident-paths.js";
import { createPollHandler } from "../../packages/functions/src/poll.js";
import type { RuntimeOverrides } from "../../packages/functions/src/runtime.js";
import { drainQueue } from "../support/drain-queue.js";
import { bagKeys, type EvidenceHarness, startEvidenceHarness } from "../support/evidence-harness.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const CONTEXT = { getRemainingTimeInMillis: () => 30_000 };

/**
 * One world per scenario: the simulator's clock moves only when the test moves it (days in
 * milliseconds), the handlers live by it, and the device's card keeps `retentionDays`.
 */
async function scenario(retentionDays: number) {
  const harness = await startEvidenceHarness({ bitrateBitsPerSecond: 64_000 });
  const { simulator, deviceid } = harness;
  const seen: Observation[] = [];
  // The card keeps `retentionDays` in the simulator, and the stage knows it (CARD_RETENTION, as the
  // evidence runtime reads it deployed: the stage's device type over the audit's estimate).
  simulator.control.setRetentionDays(deviceid, retentionDays);
  const cardRetention = { byDeviceType: [{ name: "scenario", deviceIds: [deviceid], days: retentionDays }] };
  const env = {
    ...harness.env,
    EVIDENCE_MAX_WAIT_DAYS: "14",
    CARD_RETENTION: JSON.stringify(cardRetention),
  };
  const overrides: RuntimeOverrides = {
    now: () => simulator.control.now().getTime(),
    observer: { observe: (observation) => void seen.push(observation) },
  };
  const poll = createPollHandler(env, overrides);
  return {
    harness,
    seen,
    /** A G-sensor alert an hour before the clock start, whose footage the vehicle went offline with. */
    async alertOfParkedVehicle() {
      const made = await harness.jobFor({ minutesAgo: 60, before: 30, after: 30, channels: [1] });
      const window = evidenceWindow(Date.parse(made.job.eventtime), 30, 30);
      // Recorded on the card, not uploaded: the service's map shows nothing from the window on.
      simulator.control.setRecording(deviceid, new Date(window.startMs - 60_000), harness.clockStart, 0);
      simulator.control.setOnline(deviceid, false, { hold: true, logEvent: false });
      return { ...made, window };
    },
    deliver: (job: EvidenceJobInput) => harness.deliver([job], 1, env, overrides),
    sweep: () => harness.deliver([PARKED_SWEEP_MESSAGE], 1, env, overrides),
    poll: () => poll({}, CONTEXT as never),
    /** The evidence queue through the real handler, each message delivered twice (SQS's at-least-once). */
    drain: () =>
      drainQueue(
        harness.emulators.clients.sqs,
        harness.emulators.queues.evidence,
        createEvidenceHandler(env, overrides),
        2,
      ),
    /** Requests to the endpoints that read a card, since `from` in the simulator's log. */
    cardReads: (from: number) =>
      simulator.control.requests
        .slice(from)
        .filter((entry) => entry.endpoint === "record" || entry.endpoint === "dlplayback"),
    async manifestOf(prefix: string) {
      return JSON.parse(
        (await harness.objectBytes(`${prefix}manifest.json`)).toString("utf8"),
      ) as CurrentManifest;
    },
  };
}

describe("a G-sensor alert of a vehicle parked offline for 3 days, its card keeping 7", () => {
  let world: Awaited<ReturnType<typeof scenario>>;
  beforeAll(async () => {
    world = await scenario(7);
  });
  afterAll(() => world.harness.close());

  it("parks the job, asks nothing of the card while offline, and stores the footage at the poll that reads its Online event", async () => {
    const { harness, seen } = world;
    const { simulator, deviceid, emulators } = harness;
    const { job, serialno, prefix, window } = await world.alertOfParkedVehicle();
    const eventMs = Date.parse(job.eventtime);

    const beforeJob = simulator.control.requests.length;
    expect(await world.deliver(job)).toEqual([]);
    // The footage was looked for once, then the online list said offline: parked, nothing queued.
    expect(world.cardReads(beforeJob).length).toBeGreaterThan(0);
    expect(seen.filter((seen) => seen.type === "evidence-parked")).toEqual([
      expect.objectContaining({
        alertId: job.alertId,
        retentionDays: 7,
        keptUntil: new Date(eventMs + 7 * DAY_MS).toISOString(),
      }),
    ]);
    expect(await harness.alerts.get("east", serialno, "shock")).toMatchObject({
      evidenceStatus: "waiting",
      evidenceWaiting: { keptUntilMs: eventMs + 7 * DAY_MS, retentionDays: 7 },
    });

    // Three days offline, swept every six hours: one online-list call each, no card read, no notice
    // (half of 7 days has not passed).
    const parkedAt = simulator.control.requests.length;
    for (let hours = 6; hours <= 72; hours += 6) {
      simulator.control.advance(6 * HOUR_MS);
      expect(await world.sweep()).toEqual([]);
    }
    const onlineLists = simulator.control.requests
      .slice(parkedAt)
      .filter((entry) => entry.endpoint === "onlinelist");
    expect(onlineLists).toHaveLength(12);
    expect(world.cardReads(parkedAt)).toEqual([]);
    expect(seen.filter((seen) => seen.type === "evidence-at-risk")).toEqual([]);

    await world.poll(); // the poller's first run: its cursor at the newest event
    // Back online: the card uploads (the map shows the window again), the service logs Online.
    simulator.control.setRecording(
      deviceid,
      new Date(window.startMs - 60_000),
      new Date(window.endMs + 60_000),
      1,
    );
    simulator.control.setOnline(deviceid, true, { hold: true });
    expect(world.cardReads(parkedAt)).toEqual([]);
    const playbacks = simulator.control.playbacks.length;
    await world.poll(); // reads the Online event: wakes the job
    expect(seen.filter((seen) => seen.type === "evidence-woken")).toEqual([
      expect.objectContaining({ alertId: job.alertId, by: "online-event" }),
    ]);
    await world.drain(); // the woken job, delivered twice
    const manifest = await world.manifestOf(prefix);
    expect(manifest).toMatchObject({
      version: 4,
      footage: { outcome: "recorded" },
      coverage: { partial: false },
    });
    expect(manifest.clips.map((clip) => clip.channel)).toEqual([1]);
    // Fetched once, although delivered twice; no time passed on the clock since the Online event.
    expect(simulator.control.playbacks.length - playbacks).toBe(1);
    expect(await harness.alerts.get("east", serialno, "shock")).toMatchObject({ evidenceStatus: "stored" });
    const notices = (await emulators.readInbox({ atLeast: 1 })).filter(
      (message) => message.attributes.alert_id?.value === job.alertId,
    );
    expect(notices.map((notice) => notice.attributes.evidence_status?.value)).toEqual(["stored"]);
  });
});

describe("a G-sensor alert of a vehicle parked offline past its card's 2 days", () => {
  let world: Awaited<ReturnType<typeof scenario>>;
  beforeAll(async () => {
    world = await scenario(2);
  });
  afterAll(() => world.harness.close());

  it("tells its recipients once that the footage is at risk, then stores the bag without video, saying why", async () => {
    const { harness } = world;
    const { simulator, emulators } = harness;
    const { job, serialno, prefix } = await world.alertOfParkedVehicle();
    const eventMs = Date.parse(job.eventtime);
    const atRisk = async () =>
      (await emulators.readInbox({ waitMs: 500 })).filter(
        (message) => message.attributes.evidence_status?.value === "at-risk",
      );
    await world.deliver(job);
    const parkedAtMs = simulator.control.now().getTime();
    const parkedAt = simulator.control.requests.length;

    simulator.control.advance(12 * HOUR_MS);
    await world.sweep();
    expect(await atRisk()).toEqual([]);
    simulator.control.advance(eventMs + DAY_MS + HOUR_MS - simulator.control.now().getTime());
    await world.sweep();
    expect(await atRisk()).toHaveLength(1);
    simulator.control.advance(6 * HOUR_MS);
    await world.sweep();
    expect(await atRisk()).toEqual([]);

    simulator.control.advance(eventMs + 2 * DAY_MS + HOUR_MS - simulator.control.now().getTime());
    await world.sweep(); // given up: back on the evidence queue, marked overwritten
    await world.drain();
    expect(world.cardReads(parkedAt)).toEqual([]);

    const manifest = await world.manifestOf(prefix);
    expect(manifest).toMatchObject({
      version: 4,
      clips: [],
      footage: {
        outcome: "overwritten",
        offlineSince: new Date(parkedAtMs).toISOString(),
        keptUntil: new Date(eventMs + 2 * DAY_MS).toISOString(),
        retentionDays: 2,
      },
    });
    // The bag holds the event, the track and a report saying why there is no video.
    expect(await harness.keysUnder(emulators.bucket, prefix)).toEqual(bagKeys(prefix, "track.geojson"));
    const why = `did not come back online before ${new Date(eventMs + 2 * DAY_MS).toISOString().replace("T", " ").slice(0, 19)} UTC`;
    expect((await harness.objectBytes(`${prefix}report.html`)).toString("utf8")).toContain(why);
    const record = await harness.alerts.get("east", serialno, "shock");
    expect(record).toMatchObject({ evidenceStatus: "unavailable" });
    const [notice] = (await emulators.readInbox({ atLeast: 1 })).filter(
      (message) => message.attributes.alert_id?.value === job.alertId,
    );
    expect(notice?.attributes.evidence_status?.value).toBe("unavailable");
    expect(notice?.bodies?.email).toContain(why);
    // The incident page says it in the same words.
    const incident = incidentOf(record as NonNullable<typeof record>, { manifest, prefix }, "Europe/Berlin");
    expect(evidenceSection(incident, incidentPaths("t"))).toContain(why);
  });
});

describe("parking after a crash", () => {
  let harness: EvidenceHarness;
  beforeAll(async () => {
    harness = await startEvidenceHarness({ bitrateBitsPerSecond: 64_000 });
  });
  afterAll(() => harness.close());

  it("parks once, with the first offline-since, when it crashed between the parked item and the record's status", async () => {
    const { simulator, deviceid, direct } = harness;
    const { job, serialno } = await harness.jobFor({
      minutesAgo: 30,
      before: 30,
      after: 30,
      recorded: false,
    });
    const eventMs = Date.parse(job.eventtime);
    simulator.control.setRecording(
      deviceid,
      new Date(eventMs - 2 * 60_000),
      new Date(Date.now() + HOUR_MS),
      0,
    );
    simulator.control.setOnline(deviceid, false, { hold: true, logEvent: false });
    const parsed = evidenceJobSchema.parse(job);
    const crashing = Object.assign(Object.create(harness.alerts) as AlertStore, {
      setEvidenceWaiting: async () => {
        throw new Error("crash before the status");
      },
    });
    const parkedJobs = async () => {
      const found = [];
      for await (const page of harness.parked.ofDevice("east", deviceid)) found.push(...page);
      return found.filter((parked) => parked.job.alertId === job.alertId);
    };
    await expect(
      collectEvidence(parsed, direct.settings, { ...direct.deps, alerts: crashing }),
    ).rejects.toThrow("crash before the status");
    const [first, ...none] = await parkedJobs();
    expect(none).toEqual([]);
    expect((await harness.alerts.get("east", serialno, "shock"))?.evidenceStatus).toBeUndefined();

    // SQS delivers the job again (its message was not deleted): parked again, its item found.
    const later = { ...direct.deps, now: () => Date.now() + 60_000 };
    expect(await collectEvidence(parsed, direct.settings, later)).toEqual({ kind: "parked" });
    expect(await parkedJobs()).toEqual([first]);
    expect(await harness.alerts.get("east", serialno, "shock")).toMatchObject({
      evidenceStatus: "waiting",
      evidenceWaiting: { offlineSinceMs: first?.offlineSinceMs, keptUntilMs: eventMs + HOUR_MS },
    });
  });

  it("never marks settled evidence waiting: a park that loses the race with its own wake leaves the result", async () => {
    const { job, serialno } = await harness.jobFor({ minutesAgo: 40, before: 30, after: 30 });
    const key = { account: "east", serialno, ruleId: "shock" };
    await harness.alerts.setEvidence(key, { status: "stored", keys: ["evidence/x/manifest.json"] });
    const wait = { offlineSinceMs: Date.parse(job.eventtime), keptUntilMs: Date.now(), retentionDays: 7 };
    expect(await harness.alerts.setEvidenceWaiting(key, wait)).toBe(false);
    expect(await harness.alerts.get("east", serialno, "shock")).toMatchObject({ evidenceStatus: "stored" });
  });
});
