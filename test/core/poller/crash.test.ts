import { POLL_STEPS, type PollStep, type PollSummary } from "@fleet-alerts/core/poller";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertsOf, drainInbox, pollWithClock, startPipeline } from "./pipeline.js";

const RULES = [
  {
    id: "speed",
    events: [13],
    severity: "warning" as const,
    cooldownSeconds: 600,
    evidence: { channels: [1], secondsBefore: 5, secondsAfter: 5 },
  },
  { id: "shock", events: [16], severity: "critical" as const, staleAfterSeconds: 4 * 3600 },
  { id: "offline", events: [3], severity: "info" as const, offlineForMinutes: 5 },
  { id: "disk", events: [12], severity: "critical" as const },
];
// A crash at the first and at the third time a step is reached: on the first chunk and on a later
// one. Two chunks are under way at a time: a crash in the first chunk's going out comes while the
// second's records are written, and the third's records are written while the second goes out.
const SCENARIOS = POLL_STEPS.flatMap((step) =>
  [1, 3].map((occurrence) => ({ step, occurrence, account: `crash-${step}-${occurrence}` })),
);

let pipeline: Awaited<ReturnType<typeof startPipeline>>;
let start: bigint;

beforeAll(async () => {
  const probe = await startPipelineAccounts();
  pipeline = probe;
});
afterAll(() => pipeline.close());

async function startPipelineAccounts() {
  // Every account starts at the same serial, so all of them see the same events.
  const simulator = { seed: 9, devices: 8, historyHours: 1 };
  const accounts = ["control", "concurrent", ...SCENARIOS.map((scenario) => scenario.account)];
  const first = await startPipeline({ rules: RULES, simulator, accounts: accounts.map((id) => ({ id })) });
  start = first.simulator.control.events().at(-1)?.serialno ?? 0n;
  await first.close();
  const pipeline = await startPipeline({
    rules: RULES,
    simulator,
    accounts: accounts.map((id) => ({ id, startSerialno: start })),
  });
  pipeline.simulator.control.advance(12 * 3_600_000);
  return pipeline;
}

/** Runs one account's poll, crashing at `crashAt` if given. */
function poll(account: string, crashAt?: { step: PollStep; occurrence: number }): Promise<PollSummary> {
  let reached = 0;
  return pollWithClock(pipeline, account, {
    // Chunks of 100 in pages of 200: the third occurrence of a step falls on the first chunk of
    // the second page of the 12 hours' events.
    chunkEvents: 100,
    pageEvents: 200,
    checkpoint: (step) => {
      if (step === crashAt?.step && ++reached === crashAt.occurrence) throw new Error(`crash at ${step}`);
    },
  });
}

describe("crash anywhere, then run again", () => {
  // Ten crashed runs and their replays against the emulators: about 25 s on a loaded 2-core machine.
  it("publishes exactly the crash-free set at every crash point: none lost, none twice", async () => {
    await poll("control"); // the first poll of an account with a start serial only sets its cursor
    const control = await poll("control");
    expect(control.outcome).toBe("caught-up");
    const inbox = await drainInbox(pipeline.emulators);
    const expected = alertsOf(inbox, "control")
      .map((alert) => alert.key)
      .sort();
    expect(expected.length).toBeGreaterThan(50);
    expect(control.suppressed).toBeGreaterThan(0);
    expect(control.stale + control.offlineChecks).toBeGreaterThan(0);

    for (const { account, step, occurrence } of SCENARIOS) {
      await poll(account);
      await expect(poll(account, { step, occurrence }), `${account}`).rejects.toThrow(`crash at ${step}`);
      const rerun = await poll(account);
      expect(rerun.outcome, account).toBe("caught-up");
    }
    const published = alertsOf(await drainInbox(pipeline.emulators));
    for (const { account } of SCENARIOS) {
      const keys = published
        .filter((alert) => alert.message.attributes.account?.value === account)
        .map((alert) => alert.key);
      expect(keys.sort(), account).toEqual(expected);
    }
  }, 120_000);

  it("two pollers at once on one account send nothing twice", async () => {
    await poll("concurrent");
    const summaries = await Promise.all([poll("concurrent"), poll("concurrent"), poll("concurrent")]);
    expect(summaries.filter((summary) => summary.outcome === "locked").length).toBeGreaterThanOrEqual(1);
    while ((await poll("concurrent")).eventsRead > 0) {
      // catch up whatever the locked-out runs left
    }
    const keys = alertsOf(await drainInbox(pipeline.emulators), "concurrent").map((alert) => alert.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeGreaterThan(50);
  });
});
