import { DeviceCloudNetworkError, type DeviceEvent } from "@fleet-alerts/core/devicecloud";
import { type OfflineCheckJob, offlineCheckJobSchema } from "@fleet-alerts/core/offline";
import {
  type AccountSettings,
  type PollerDependencies,
  PollFailedError,
  type PollSummary,
  runPollers,
  TickCarry,
} from "@fleet-alerts/core/poller";
import { DEFAULT_RULES } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { fakePollerDependencies } from "../../support/fakes/index.js";

/**
 * The outage drill: a fleet of 1,000 devices whose device cloud cannot be reached for 1, 6 and 24
 * hours, polled once a minute throughout as the schedule does, with the default rules (stale after
 * 6 hours). Each run has the deadline of a Lambda run and pays two seconds of it per chunk, about
 * what a chunk costs at 128 MB (poller/page-reader.ts): so a long backlog takes several runs.
 */
const DEVICES = 1_000;
const EVENT_EVERY_MS = 40 * 60_000; // each device: 1,500 events an hour for the fleet
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const RUN_BUDGET_MS = 50_000;
const CHUNK_COST_MS = 2_000;
const SIX_HOURS = 6 * HOUR;
const START_MS = Date.parse("2026-03-02T06:00:00Z");
const ACCOUNT = "fleet";
const ALERTING = new Set([13, 16, 3, 12]);
const SETTINGS: AccountSettings = {
  account: ACCOUNT,
  rules: DEFAULT_RULES,
  fleetTimeZone: "Europe/Berlin",
  gps: { speedUnit: "km/h", budgetMs: 0 },
  startSerialno: 0n,
};

/**
 * Device `d`'s `k`th event: 2% OverSpeed, 0.5% G-sensor, 1% Offline (the device's next event
 * brings it back Online), 0.1% disk errors, the rest Online or Reboot.
 */
function codeOf(device: number, slot: number): number {
  return slot > 0 && drawnCode(device, slot - 1) === 3 ? 0 : drawnCode(device, slot);
}

function drawnCode(device: number, slot: number): number {
  const draw = (device * 7_919 + slot * 104_729) % 1_000;
  if (draw < 20) return 13;
  if (draw < 25) return 16;
  if (draw < 35) return 3;
  if (draw < 36) return 12;
  return draw % 2 === 0 ? 0 : 2;
}

/** The fleet's events from START_MS to `untilMs`, in log order. */
function fleetEvents(untilMs: number): DeviceEvent[] {
  const events: { eventMs: number; deviceid: string; appdevid: number }[] = [];
  for (let device = 0; device < DEVICES; device++) {
    const offset = Math.floor((device * EVENT_EVERY_MS) / DEVICES);
    for (let slot = 0, at = START_MS + offset; at <= untilMs; slot++, at += EVENT_EVERY_MS)
      events.push({
        eventMs: at,
        deviceid: `MDVR${String(device).padStart(4, "0")}`,
        appdevid: codeOf(device, slot),
      });
  }
  events.sort((a, b) => a.eventMs - b.eventMs);
  return events.map((event, index) => ({
    serialno: BigInt(index + 1),
    deviceid: event.deviceid,
    appdevid: event.appdevid,
    eventtime: new Date(event.eventMs).toISOString(),
  }));
}

interface Drill {
  /** Every run's summary, with the simulated time it ran at; a failed run has none, only its lag. */
  runs: { atMs: number; summary?: PollSummary; lagSeconds?: number }[];
  events: DeviceEvent[];
  world: ReturnType<typeof fakePollerDependencies>;
  outageStartMs: number;
  recoveryMs: number;
}

/** One hour of normal polling, then `outageHours` without the device cloud, then two hours after. */
async function runDrill(outageHours: number): Promise<Drill> {
  const outageStartMs = START_MS + HOUR;
  const recoveryMs = outageStartMs + outageHours * HOUR;
  const endMs = recoveryMs + 2 * HOUR;
  const world = fakePollerDependencies(START_MS);
  const events = fleetEvents(endMs);
  world.deps.client.events.push(...events);
  world.deps.client.loggedUntil = () => world.clock.nowMs;
  const carry = new TickCarry();
  const runs: Drill["runs"] = [];
  for (let atMs = START_MS; atMs <= endMs; atMs += MINUTE) {
    world.clock.nowMs = atMs;
    world.deps.client.unreachable =
      atMs >= outageStartMs && atMs < recoveryMs
        ? new DeviceCloudNetworkError("eventQuery", "ECONNREFUSED", 1)
        : undefined;
    // A run's own clock: its deadline passes after about 25 chunks.
    let spentMs = 0;
    const deps: PollerDependencies = {
      ...world.deps,
      wallClock: () => spentMs,
      checkpoint: (step) => {
        if (step === "cursor-advanced") spentMs += CHUNK_COST_MS;
      },
    };
    try {
      const [summary] = await runPollers([{ settings: SETTINGS, deps, carry }], {
        deadlineMs: RUN_BUDGET_MS,
        // The invocation's end: the deadline's margin covers the two chunks under way.
        endsAtMs: RUN_BUDGET_MS + 2 * CHUNK_COST_MS,
      });
      runs.push({ atMs, ...(summary && { summary, lagSeconds: summary.lagSeconds }) });
    } catch (error) {
      if (!(error instanceof PollFailedError)) throw error;
      runs.push({
        atMs,
        ...(error.failures[0]?.lagSeconds !== undefined && { lagSeconds: error.failures[0].lagSeconds }),
      });
    }
  }
  return { runs, events, world, outageStartMs, recoveryMs };
}

function expectEveryAlertOnce({ events, world, outageStartMs, recoveryMs }: Drill) {
  const records = world.deps.alerts.all();
  const offlineRecords = records.filter((record) => record.ruleId === "offline");
  // An Offline event is recorded by its confirmation, unless it is stale: then here, and never checked.
  expect(offlineRecords.every((record) => record.status === "stale")).toBe(true);
  const alerting = events.filter((event) => ALERTING.has(event.appdevid) && event.appdevid !== 3);
  // One record per other alerting event (no cooldown bites: a device's events are 40 minutes apart)...
  expect(
    records
      .filter((record) => record.ruleId !== "offline")
      .map((record) => String(record.serialno))
      .sort(),
  ).toEqual(alerting.map((event) => event.serialno.toString()).sort());
  // ...published once each, unless stale; an Offline one waits for its confirmation instead.
  const published = world.deps.publisher.acceptedIds();
  expect(new Set(published).size).toBe(published.length);
  const eventMs = new Map(events.map((event) => [event.serialno.toString(), Date.parse(event.eventtime)]));
  for (const record of records) {
    const at = eventMs.get(String(record.serialno)) as number;
    // Stale: more than 6 h old when the catch-up reached it; sent: polled live, or younger than that.
    if (record.status === "stale")
      expect(at, record.alertId).toBeLessThan(recoveryMs + 30 * MINUTE - SIX_HOURS);
    else if (at >= outageStartMs) expect(at, record.alertId).toBeGreaterThanOrEqual(recoveryMs - SIX_HOURS);
  }
  const sent = records.filter((record) => record.status === "published").map((record) => record.alertId);
  expect(published.sort()).toEqual(sent.sort());
}

/**
 * The Offline checks: none scheduled for an event of the outage that was stale when read, and none
 * left pending (an Offline alert to come) for a device whose Online followed: no flood.
 */
async function expectNoOfflineFlood({ world, events, outageStartMs, recoveryMs }: Drill) {
  const jobs: OfflineCheckJob[] = world.deps.confirmQueue.sent.map((message) =>
    offlineCheckJobSchema.parse(JSON.parse(message.body)),
  );
  for (const job of jobs.filter((job) => Date.parse(job.eventtime) >= outageStartMs))
    expect(Date.parse(job.eventtime)).toBeGreaterThanOrEqual(recoveryMs - SIX_HOURS - MINUTE);
  const lastEventOf = new Map(events.map((event) => [event.deviceid, event]));
  const pending: string[] = [];
  for (const job of jobs) {
    const check = await world.deps.offlineChecks.get(ACCOUNT, job.deviceid, job.ruleId);
    if (check?.status === "pending") pending.push(job.deviceid);
  }
  expect(pending.every((deviceid) => lastEventOf.get(deviceid)?.appdevid === 3)).toBe(true);
}

function caughtUpAfter({ runs, recoveryMs }: Drill) {
  const after = runs.filter((run) => run.atMs >= recoveryMs);
  const firstCaughtUp = after.findIndex((run) => run.summary?.outcome === "caught-up");
  return { after, firstCaughtUp };
}

describe("the outage drill: 1,000 devices, the device cloud unreachable, then back", () => {
  for (const hours of [1, 6, 24]) {
    it(`catches up by itself after ${hours} h, every alert once, stale ones held back`, async () => {
      const drill = await runDrill(hours);
      const during = drill.runs.filter(
        (run) => run.atMs >= drill.outageStartMs && run.atMs < drill.recoveryMs,
      );
      expect(during.every((run) => run.summary === undefined)).toBe(true); // every run failed: no cursor moved
      // Their lag: the time since a run last caught up (a minute before the outage), growing by the
      // minute, what the account's lag metric and alarm see.
      const lags = during.map((run) => run.lagSeconds);
      expect(lags).toEqual(during.map((run) => Math.round((run.atMs - drill.outageStartMs) / 1000) + 60));

      const { after, firstCaughtUp } = caughtUpAfter(drill);
      const backlog = drill.events.filter(
        (event) =>
          Date.parse(event.eventtime) >= drill.outageStartMs &&
          Date.parse(event.eventtime) < drill.recoveryMs,
      ).length;
      // Ordinary runs drain it, about 25 chunks of 500 a run: no manual step.
      expect(firstCaughtUp).toBeGreaterThanOrEqual(0);
      expect(firstCaughtUp).toBeLessThanOrEqual(Math.ceil(backlog / (25 * 500)) + 1);
      if (hours === 24) expect(firstCaughtUp).toBeGreaterThanOrEqual(2); // a run could not hold it all
      // The lag: high while the backlog drains (the oldest event not yet handled, falling run by
      // run), nothing once caught up.
      const draining = after.slice(0, firstCaughtUp).map((run) => run.summary?.lagSeconds ?? 0);
      expect(draining).toEqual([...draining].sort((a, b) => b - a));
      for (const lag of draining) expect(lag).toBeGreaterThan(HOUR / 1000);
      for (const run of after.slice(firstCaughtUp)) expect(run.summary?.lagSeconds).toBe(0);

      expectEveryAlertOnce(drill);
      const stale = drill.world.deps.alerts.all().filter((record) => record.status === "stale");
      if (hours === 24) {
        // The outage's first 18 hours are older than 6 h at recovery: held back, G-sensor ones too.
        expect(stale.length).toBeGreaterThan(300);
        expect(stale.some((record) => record.ruleId === "gsensor")).toBe(true);
        expect(stale.some((record) => record.ruleId === "offline")).toBe(true);
      } else if (hours === 6)
        expect(stale.length).toBeLessThan(20); // the outage's first minutes only
      else expect(stale).toEqual([]);
      await expectNoOfflineFlood(drill);
    }, 120_000);
  }
});
