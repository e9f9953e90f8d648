import {
  POLL_STEPS,
  type PollStep,
  type PollSummary,
  pollAccount,
  TickCarry,
} from "@fleet-alerts/core/poller";
import { describe, expect, it, vi } from "vitest";
import { fakePollerDependencies } from "../../support/fakes/index.js";
import { ACCOUNT, events, NOW, outcome, poll, SETTINGS, START, world } from "./fake-world.js";

describe("pollAccount over in-memory ports", () => {
  it("publishes each alert once, caught up, and publishes nothing on the next run", async () => {
    const control = world();
    const summary = await poll(control.deps);
    expect(summary).toMatchObject({ outcome: "caught-up", eventsRead: 250, cursor: "1250", lagSeconds: 0 });
    expect(summary.alertsPublished).toBeGreaterThan(50);
    expect(summary.suppressed).toBeGreaterThan(0);
    expect(summary.stale).toBeGreaterThan(0);
    expect(summary.offlineChecks).toBeGreaterThan(0);
    expect(summary.offlineCancelled).toBeGreaterThan(0);
    const ids = control.deps.publisher.acceptedIds();
    expect(new Set(ids).size).toBe(ids.length);
    expect(summary.alertsPublished).toBe(ids.length);
    expect(summary.evidenceJobs).toBe(control.deps.evidenceQueue.sent.length);
    expect(control.observations.filter((seen) => seen.type === "alert-published")).toHaveLength(ids.length);
    expect(control.deps.lock.holder(ACCOUNT)).toBeUndefined();

    expect(await poll(control.deps)).toMatchObject({
      outcome: "caught-up",
      eventsRead: 0,
      alertsPublished: 0,
    });
    expect(control.deps.publisher.acceptedIds()).toEqual(ids);
  });

  // At each of the three chunks: the first, the second (written while the first goes out), the last.
  const crashes = POLL_STEPS.flatMap((step) => [1, 2, 3].map((occurrence) => ({ step, occurrence })));
  it.each(crashes)("a crash at $step (#$occurrence), then a replay: none lost, none twice", async (crash) => {
    const control = world();
    await poll(control.deps);
    const crashed = world();
    let reached = 0;
    const checkpoint = (step: PollStep) => {
      if (step === crash.step && ++reached === crash.occurrence) throw new Error(`crash at ${step}`);
    };
    await expect(poll({ ...crashed.deps, checkpoint })).rejects.toThrow(`crash at ${crash.step}`);
    expect(crashed.deps.lock.holder(ACCOUNT)).toBeUndefined();
    // Nothing of the crashed run is still writing once it has given up the lease.
    const leftBehind = await outcome(crashed);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await outcome(crashed)).toEqual(leftBehind);
    expect(await poll(crashed.deps)).toMatchObject({ outcome: "caught-up", cursor: "1250" });
    expect(await outcome(crashed)).toEqual(await outcome(control));
  });

  it("records each chunk while the one before goes out, and sends it only once that one moved the cursor", async () => {
    const { deps } = world(450); // five chunks, each with alerts
    const steps: PollStep[] = [];
    expect(await poll({ ...deps, checkpoint: (step) => void steps.push(step) })).toMatchObject({
      outcome: "caught-up",
      cursor: "1450",
    });
    const at = (step: PollStep) => steps.flatMap((seen, index) => (seen === step ? [index] : []));
    const [recorded, published, saved, advanced] = [
      at("alerts-recorded"),
      at("alerts-published"),
      at("states-saved"),
      at("cursor-advanced"),
    ];
    for (const reached of [recorded, published, saved, advanced]) expect(reached).toHaveLength(5);
    for (let chunk = 1; chunk < 5; chunk++) {
      const earlier = (reached: number[], chunks = 1) => reached[chunk - chunks] as number;
      // Written while the chunk before goes out, but never more than two chunks at a time.
      expect(recorded[chunk]).toBeLessThan(earlier(advanced));
      if (chunk >= 2) expect(recorded[chunk]).toBeGreaterThan(earlier(advanced, 2));
      // Published and its states saved only once the chunk before has moved the cursor.
      expect(published[chunk]).toBeGreaterThan(earlier(advanced));
      expect(saved[chunk]).toBeGreaterThan(earlier(advanced));
    }
  });

  it("stops when another run moved the cursor, having recorded and published nothing twice", async () => {
    const { deps } = world();
    const cursors = {
      read: async (account: string) => {
        const cursor = (await deps.cursors.read(account)) as bigint;
        // The other run, meanwhile: once this one holds the lease (its look before is not disturbed);
        // an operator's move, or a run of no later lease.
        if (deps.lock.holder(account) !== undefined)
          await deps.cursors.advance(account, cursor, cursor + 100n, NOW, 0);
        return cursor;
      },
      advance: deps.cursors.advance.bind(deps.cursors),
    };
    const summary = await poll({ ...deps, cursors });
    expect(summary).toMatchObject({ outcome: "cursor-moved", cursor: "1000" });
    expect(await deps.cursors.read(ACCOUNT)).toBe(1_100n);
    const published = deps.publisher.acceptedIds();
    await poll(deps);
    expect(deps.publisher.acceptedIds().filter((id) => published.includes(id))).toEqual(published);
  });

  it("stops at the deadline between chunks, and says how far behind it is", async () => {
    const { deps } = world();
    let wallMs = 0;
    const checkpoint = (step: PollStep) => {
      if (step === "cursor-advanced") wallMs = 10;
    };
    // The deadline passes as the first chunk moves the cursor, the second chunk's records being
    // written meanwhile: that one goes out too, and the run stops before the third.
    const summary = await poll({ ...deps, wallClock: () => wallMs, checkpoint }, 10);
    expect(summary).toMatchObject({ outcome: "deadline", cursor: "1200", eventsRead: 250 });
    expect(summary.lagSeconds).toBe(Math.round((NOW - Date.parse(events(201)[200]?.eventtime ?? "")) / 1000));
    expect(await poll({ ...deps, wallClock: () => 10 }, 10)).toMatchObject({
      outcome: "deadline",
      eventsRead: 0,
    });
    expect(await poll(deps)).toMatchObject({ outcome: "caught-up", cursor: "1250" });
  });

  it("records and reports rejected events and moves past them, a page of them alone too", async () => {
    const { deps, observations } = world(3);
    const issues = [{ path: "eventtime", message: "Invalid" }];
    deps.client.rejected.push(
      { event: { raw: { serialno: 1005 }, serialno: 1_005n, issues }, after: 1_005n },
      { event: { raw: { deviceid: "D9" }, issues }, after: 1_003n },
      { event: { raw: { serialno: 1009 }, serialno: 1_009n, issues }, after: 1_009n },
    );
    const summary: PollSummary = await poll(deps);
    expect(summary).toMatchObject({ outcome: "caught-up", rejected: 3, eventsRead: 3, cursor: "1009" });
    // The one without a serial comes with the scan of serials, before the page that holds the others.
    expect([...deps.rejected.recorded.keys()]).toEqual(['east/{"deviceid":"D9"}', "east/1005", "east/1009"]);
    const rejected = observations.filter((seen) => seen.type === "event-rejected");
    expect(rejected.map((seen) => seen.serialno)).toEqual([undefined, "1005", "1009"]);
  });

  it("skips an account whose lease another run holds, and starts a first run at the newest event", async () => {
    const held = world();
    await held.deps.lock.acquire(ACCOUNT, {
      token: "someone else",
      nowMs: Date.now(),
      untilMs: Date.now() + 60_000,
    });
    expect(await poll(held.deps)).toMatchObject({ outcome: "locked", eventsRead: 0 });

    const first = fakePollerDependencies(NOW);
    first.deps.client.events.push(...events(5));
    expect(await poll(first.deps)).toMatchObject({ outcome: "started", cursor: "1005", alertsPublished: 0 });
    expect(first.deps.publisher.accepted).toEqual([]);
  });

  it("keeps the cursor when a publish fails for now, and publishes on the next run", async () => {
    const { deps } = world(10);
    deps.publisher.verdict = () => "transient";
    await expect(poll(deps)).rejects.toThrow(/next run retries/);
    expect(await deps.cursors.read(ACCOUNT)).toBe(START);
    deps.publisher.verdict = () => "ok";
    expect(await poll(deps)).toMatchObject({ outcome: "caught-up", cursor: "1010" });
    expect(deps.publisher.accepted.length).toBeGreaterThan(0);
  });
});

describe("ticks of one invocation (a poll every few seconds)", () => {
  it("read the rule states once, and decide as one run over the same events would", async () => {
    const control = world(250);
    await poll(control.deps);
    const ticked = world(0);
    const loads = vi.spyOn(ticked.deps.states, "loadAll");
    const carry = new TickCarry();
    const all = events(250);
    for (const slice of [all.slice(0, 90), all.slice(90, 91), [], all.slice(91)]) {
      ticked.deps.client.events.push(...slice);
      await pollAccount(SETTINGS, ticked.deps, { deadlineMs: Number.POSITIVE_INFINITY, carry });
    }
    expect(loads).toHaveBeenCalledTimes(1);
    expect(await outcome(ticked)).toEqual(await outcome(control));
  });

  it("read them again once another run has moved the cursor, or a tick failed", async () => {
    const { deps } = world(10);
    const loads = vi.spyOn(deps.states, "loadAll");
    const carry = new TickCarry();
    await pollAccount(SETTINGS, deps, { deadlineMs: Number.POSITIVE_INFINITY, carry });
    deps.client.events.push(...events(20).slice(10));
    await poll(deps); // another invocation, overlapping this one
    // The next events: a poll that finds none reads nothing at all, rule states included.
    deps.client.events.push(...events(25).slice(20));
    await pollAccount(SETTINGS, deps, { deadlineMs: Number.POSITIVE_INFINITY, carry });
    expect(loads).toHaveBeenCalledTimes(3);

    deps.client.events.push(...events(30).slice(25));
    const crash = (step: PollStep) => {
      if (step === "states-saved") throw new Error("crash");
    };
    await expect(
      pollAccount(SETTINGS, { ...deps, checkpoint: crash }, { deadlineMs: Number.POSITIVE_INFINITY, carry }),
    ).rejects.toThrow("crash");
    expect(loads).toHaveBeenCalledTimes(3); // the cursor had not moved: the failed tick read none
    await pollAccount(SETTINGS, deps, { deadlineMs: Number.POSITIVE_INFINITY, carry });
    expect(loads).toHaveBeenCalledTimes(4);
  });
});
