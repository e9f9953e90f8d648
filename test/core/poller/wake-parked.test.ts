import type { DeviceEvent } from "@fleet-alerts/core/devicecloud";
import {
  type AccountSettings,
  POLL_STEPS,
  type PollerDependencies,
  type PollStep,
  pollAccount,
} from "@fleet-alerts/core/poller";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { FakeParkedEvidence, fakePollerDependencies, gsensorJob } from "../../support/fakes/index.js";

const NOW = Date.parse("2026-01-05T12:00:00Z");
const ACCOUNT = "east";
const START = 1_000n;
const SETTINGS: AccountSettings = {
  account: ACCOUNT,
  // An alert with an evidence job per other event, so that a chunk goes through every step.
  rules: [
    ruleSchema.parse({
      id: "idle",
      events: [14],
      severity: "info",
      evidence: { channels: [1], secondsBefore: 10, secondsAfter: 10 },
    }),
  ],
  fleetTimeZone: "Europe/Berlin",
  gps: { speedUnit: "km/h", budgetMs: 0 },
};
// Ids the device cloud may send: one the prefix of another's key, one with the key's separator.
const BACK = "van#1";
const AWAY = "van";

const parkedJob = (deviceid: string, serialno: number) =>
  gsensorJob(ACCOUNT, serialno, deviceid, NOW - 3 * 86_400_000);

/** 12 events after START in chunks of 4; `online` puts BACK's Online event at that position. */
function world(online: number | undefined) {
  const fakes = fakePollerDependencies(NOW);
  const parked = new FakeParkedEvidence();
  Object.assign(fakes.deps, { chunkEvents: 4, parkedEvidence: parked });
  const events: DeviceEvent[] = Array.from({ length: 12 }, (_, index) => ({
    serialno: START + BigInt(index + 1),
    deviceid: index === online ? BACK : `other-${index}`,
    appdevid: index === online ? 0 : 14,
    eventtime: new Date(NOW - (12 - index) * 1000).toISOString(),
  }));
  fakes.deps.client.events.push(...events);
  void fakes.deps.cursors.advance(ACCOUNT, undefined, START, NOW, 0);
  const jobs = [parkedJob(BACK, 1), parkedJob(BACK, 2), parkedJob(BACK, 3), parkedJob(AWAY, 4)];
  for (const job of jobs)
    void parked.park({
      job,
      parkedAtMs: NOW - 86_400_000,
      offlineSinceMs: NOW - 86_400_000,
      keptUntilMs: NOW + 86_400_000,
      retentionDays: 7,
    });
  return { ...fakes, parked };
}

const poll = (deps: PollerDependencies) =>
  pollAccount(SETTINGS, deps, { deadlineMs: Number.POSITIVE_INFINITY });
/** The woken jobs sent (the idle alerts' own evidence jobs left out). */
const sentAlertIds = (deps: ReturnType<typeof world>["deps"]) =>
  deps.evidenceQueue
    .jobs<{ alertId: string; ruleId: string }>()
    .filter((job) => job.ruleId === "shock")
    .map((job) => job.alertId);
const BACK_IDS = [`${ACCOUNT}:1:shock`, `${ACCOUNT}:2:shock`, `${ACCOUNT}:3:shock`];

describe("the poller wakes parked evidence", () => {
  it("sends a device's parked jobs back to the evidence queue when a chunk holds its Online event, and only that device's", async () => {
    const { deps, parked, observations } = world(5);
    expect(await poll(deps)).toMatchObject({ outcome: "caught-up", cursor: "1012" });
    expect(sentAlertIds(deps).sort()).toEqual(BACK_IDS);
    // Sent as parked: the job whole, its attempts from the start.
    expect(deps.evidenceQueue.jobs().find((job) => job.alertId === BACK_IDS[0])).toEqual({
      ...parkedJob(BACK, 1),
    });
    expect(parked.alertIds()).toEqual([`${ACCOUNT}:4:shock`]);
    expect(parked.deviceQueries).toBe(1);
    expect(observations.filter((seen) => seen.type === "evidence-woken")).toEqual(
      BACK_IDS.map((alertId) => expect.objectContaining({ alertId, by: "online-event", deviceid: BACK })),
    );
  });

  it("asks for no parked job of a chunk without an Online event", async () => {
    const { deps, parked } = world(undefined);
    await poll(deps);
    expect(parked.deviceQueries).toBe(0);
    expect(sentAlertIds(deps)).toEqual([]);
    expect(parked.alertIds()).toHaveLength(4);
  });

  it("asks no device for its parked jobs while the account has none parked", async () => {
    const { deps, parked } = world(5);
    for await (const page of parked.ofAccount(ACCOUNT)) for (const job of page) await parked.remove(job);
    await poll(deps);
    expect(parked.deviceQueries).toBe(0);
    expect(sentAlertIds(deps)).toEqual([]);
  });

  it("sends them again after a crash between the send and the removal, and loses none", async () => {
    const { deps, parked } = world(5);
    parked.failRemovals = 1;
    await expect(poll(deps)).rejects.toThrow("crash before the parked item is removed");
    expect(await poll(deps)).toMatchObject({ outcome: "caught-up", cursor: "1012" });
    // The page of the crash went twice: the evidence function takes a job twice as once.
    expect([...new Set(sentAlertIds(deps))].sort()).toEqual(BACK_IDS);
    expect(parked.alertIds()).toEqual([`${ACCOUNT}:4:shock`]);
  });

  const crashes = POLL_STEPS.flatMap((step) => [1, 2].map((occurrence) => ({ step, occurrence })));
  it.each(crashes)(
    "a crash at $step (#$occurrence), then a replay: every woken job sent, none left parked",
    async (crash) => {
      const { deps, parked } = world(5); // the second chunk's
      let reached = 0;
      const checkpoint = (step: PollStep) => {
        if (step === crash.step && ++reached === crash.occurrence) throw new Error(`crash at ${step}`);
      };
      await expect(poll({ ...deps, checkpoint })).rejects.toThrow(`crash at ${crash.step}`);
      expect(await poll(deps)).toMatchObject({ outcome: "caught-up", cursor: "1012" });
      const sent = sentAlertIds(deps);
      expect([...new Set(sent)].sort()).toEqual(BACK_IDS);
      // Woken before the cursor passed the Online event: a replay finds them gone, and sends nothing again.
      expect(sent).toHaveLength(BACK_IDS.length);
      expect(parked.alertIds()).toEqual([`${ACCOUNT}:4:shock`]);
    },
  );
});
