import { LEASE_MARGIN_MS } from "@fleet-alerts/core/cursor";
import { confirmOffline, type OfflineCheckJob } from "@fleet-alerts/core/offline";
import {
  type ChainPoll,
  nextPollTimer,
  POLL_STEPS,
  type PollStep,
  type PollTimer,
  pollAccount,
} from "@fleet-alerts/core/poller";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { fakePollerDependencies } from "../../support/fakes/index.js";
import { holdAt } from "../../support/hold.js";
import { ACCOUNT, events, NOW, outcome, SETTINGS, world } from "./fake-world.js";

// The interleavings of docs/design/exactly-once.md, "The lease and the fence", over the fakes: a
// poll that outlives its lease, a timer delivered twice, an Offline check delivered twice at once.

const INVOCATION_MS = 60_000;

/** What a crash-free run of the same backlog leaves behind. */
async function control() {
  const alone = world();
  await pollAccount(SETTINGS, alone.deps, { deadlineMs: Number.POSITIVE_INFINITY });
  return outcome(alone);
}

describe("a poll that outlives its lease", () => {
  // Poll A is held at a step (a starved CPU, a slow AWS call) past its lease; poll B takes the
  // lease, reads from the unmoved cursor and catches up; then A resumes.
  const cases = POLL_STEPS.flatMap((step) => [
    // A's own clock shows the time gone by: its lease check stops it.
    { step, clock: "moves" as const },
    // A's clock lags (a host whose clock is behind): the fence on its next write stops it.
    { step, clock: "lags" as const },
  ]);
  it.each(cases)(
    "held at $step (its clock $clock) publishes nothing more: every alert once",
    async ({ step, clock }) => {
      const expected = await control();
      const shared = world();
      const wall = { ms: NOW };
      const hold = holdAt<PollStep>(step);
      const startedMs = wall.ms;
      const a = pollAccount(
        SETTINGS,
        {
          ...shared.deps,
          checkpoint: hold.checkpoint,
          wallClock: clock === "moves" ? () => wall.ms : () => startedMs,
        },
        { deadlineMs: Number.POSITIVE_INFINITY, endsAtMs: startedMs + INVOCATION_MS },
      );
      await hold.arrived;
      wall.ms += INVOCATION_MS + LEASE_MARGIN_MS + 1;
      const b = await pollAccount(
        SETTINGS,
        { ...shared.deps, wallClock: () => wall.ms },
        { deadlineMs: Number.POSITIVE_INFINITY },
      );
      expect(b).toMatchObject({ outcome: "caught-up", cursor: "1250" });
      hold.release();
      expect(await a).toMatchObject({ outcome: "fenced" });
      const [taken, takenOver] = shared.deps.lock.takes;
      expect(takenOver?.epoch).toBeGreaterThan(taken?.epoch ?? Number.POSITIVE_INFINITY);
      expect(shared.observations).toContainEqual(
        expect.objectContaining({ type: "poll-fenced", account: ACCOUNT, epoch: taken?.epoch }),
      );
      expect(await outcome(shared)).toEqual(expected);
      // Nothing of A is still under way: what it left is what stays.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await outcome(shared)).toEqual(expected);
      expect(shared.deps.lock.holder(ACCOUNT)).toBeUndefined();
    },
  );
});

/** A poll of a chain that was handed the lease under `handedOverBy`, and whose chain goes on. */
function chainPoll(handedOverBy?: string): ChainPoll & { leftUnder?: string } {
  const poll: ChainPoll & { leftUnder?: string } = {
    ...(handedOverBy !== undefined && { handedOverBy }),
    last: false,
    goesOn(token) {
      poll.leftUnder = token;
      return true;
    },
  };
  return poll;
}

describe("a timer delivered twice", () => {
  it("lets one copy take the lease over by name; the other is refused, ends its chain, and nothing goes out twice", async () => {
    const expected = await control();
    const shared = world();
    const deadline = { deadlineMs: Number.POSITIVE_INFINITY };
    // The chain's first poll finds a few events and leaves the lease to the next, by its token.
    const first = chainPoll();
    shared.deps.client.events.splice(10);
    await pollAccount(SETTINGS, shared.deps, { ...deadline, chain: first });
    const token = first.leftUnder as string;
    expect(shared.deps.lock.holder(ACCOUNT)).toBe(token);
    shared.deps.client.events.push(...events(250).slice(10));

    // The next timer, delivered twice: one copy takes the lease over and is held mid-catch-up ...
    const hold = holdAt<PollStep>("alerts-recorded");
    const copy1 = chainPoll(token);
    const taking = pollAccount(
      SETTINGS,
      { ...shared.deps, checkpoint: hold.checkpoint },
      { ...deadline, chain: copy1 },
    );
    await hold.arrived;
    // ... while the other finds events too, and is refused the lease the first copy now holds.
    const copy2 = chainPoll(token);
    expect(await pollAccount(SETTINGS, shared.deps, { ...deadline, chain: copy2 })).toMatchObject({
      outcome: "locked",
      eventsRead: 0,
    });
    const timer: PollTimer = {
      kind: "poll-timer",
      account: ACCOUNT,
      plannedMs: NOW,
      untilMs: NOW + 60_000,
      failures: 0,
      lease: token,
    };
    expect(nextPollTimer(timer, "refused", NOW + 100, 5_000, { watchdog: false })).toBeUndefined();
    hold.release();
    expect(await taking).toMatchObject({ outcome: "caught-up", cursor: "1250" });
    expect(await outcome(shared)).toEqual(expected);
  });
});

describe("an Offline check delivered twice", () => {
  const offline = ruleSchema.parse({ id: "offline", events: [3], severity: "info", offlineForMinutes: 5 });
  const job: OfflineCheckJob = {
    version: 1,
    account: ACCOUNT,
    ruleId: "offline",
    deviceid: "D7",
    serialno: "4242",
    eventtime: new Date(NOW - 600_000).toISOString(),
    dueAtMs: NOW - 1,
  };
  const settings = { rules: [offline], fleetTimeZone: "Europe/Berlin", gps: SETTINGS.gps };

  async function pendingCheck() {
    const fakes = fakePollerDependencies(NOW);
    await fakes.deps.offlineChecks.schedule(ACCOUNT, "D7", "offline", 4242n, job.dueAtMs);
    return fakes;
  }

  it("at once publishes once; the copy that finds the alert claimed comes back after the claim", async () => {
    const { deps, observations } = await pendingCheck();
    const outcomes = await Promise.all([
      confirmOffline(job, settings, deps),
      confirmOffline(job, settings, deps),
    ]);
    expect(outcomes.sort()).toEqual(["alerted", "busy"]);
    expect(deps.publisher.acceptedIds()).toEqual([`${ACCOUNT}:4242:offline`]);
    expect(observations.filter((seen) => seen.type === "offline-busy")).toHaveLength(1);
    // The copy sent itself back; when it comes, the check is settled.
    expect(deps.confirmQueue.jobs()).toEqual([job]);
    expect(await confirmOffline(job, settings, deps)).toBe("not-pending");
    expect(deps.publisher.acceptedIds()).toHaveLength(1);
  });

  it("after a crash between the claim and the Publish, loses nothing: sent once the claim has run out", async () => {
    const { deps } = await pendingCheck();
    const wall = { ms: NOW };
    const clocked = { ...deps, wallClock: () => wall.ms };
    const crashing = {
      ...clocked,
      publisher: {
        publish: async () => {
          throw new Error("crash before the topic took it");
        },
      },
    };
    await expect(confirmOffline(job, settings, crashing)).rejects.toThrow("crash before the topic");
    // SQS delivers it again at once (a second copy): the claim still holds, nothing goes out.
    expect(await confirmOffline(job, settings, clocked)).toBe("busy");
    expect(deps.publisher.acceptedIds()).toEqual([]);
    wall.ms += 5 * 60_000 + 1;
    expect(await confirmOffline(job, settings, clocked)).toBe("alerted");
    expect(deps.publisher.acceptedIds()).toEqual([`${ACCOUNT}:4242:offline`]);
  });
});
