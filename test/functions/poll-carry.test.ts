import { type Simulator, start } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPollHandler } from "../../packages/functions/src/poll.js";
import { type Emulators, startEmulators } from "../../packages/local/src/emulators.js";

// The local mode's emulators: they count the requests each operation gets.
let emulators: Emulators;
let simulator: Simulator;
let env: Record<string, string>;

beforeAll(async () => {
  [emulators, simulator] = await Promise.all([
    startEmulators(),
    start({ seed: 5, devices: 4, historyHours: 1 }),
  ]);
  env = {
    ...emulators.env(),
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify([{ id: "carry", baseUrl: simulator.url, username: "demo" }]),
    DEVICE_CLOUD_PASSWORD: "demo",
  };
});
afterAll(async () => {
  await simulator?.close();
  await emulators?.close();
});

const CONTEXT = { getRemainingTimeInMillis: () => 30_000 };

/** The DynamoDB Queries one scheduled run makes (the rule states are read with one). */
async function queriesOf(run: () => Promise<unknown>): Promise<number> {
  const before = (await emulators.requestCounts())["DynamoDB Query"] ?? 0;
  await run();
  return ((await emulators.requestCounts())["DynamoDB Query"] ?? 0) - before;
}

describe("a warm poller container", () => {
  it("reads the rule states on its first run only, while no other run moves the cursor", async () => {
    const warm = createPollHandler(env);
    await warm({}, CONTEXT); // sets the cursor
    simulator.control.advance(30 * 60_000); // events, some alerting
    expect(await queriesOf(() => warm({}, CONTEXT))).toBeGreaterThanOrEqual(1);
    simulator.control.advance(30 * 60_000);
    // The next runs find the cursor where the last left it: no state read, only the alert windows'.
    const windowQueries = await queriesOf(() => warm({}, CONTEXT));
    expect(await queriesOf(() => warm({}, CONTEXT))).toBe(0); // idle: nothing at all

    // Another container's run moves the cursor. This one, finding nothing after it, reads no rule
    // state (test/core/poller/poll-account.test.ts: it reads them again once it has events); it
    // looks once for a stale summary owed at the new cursor (one Query of the open summary's tallies).
    const other = createPollHandler(env);
    simulator.control.advance(30 * 60_000);
    await other({}, CONTEXT);
    expect(await queriesOf(() => warm({}, CONTEXT))).toBe(1);
    expect(await queriesOf(() => warm({}, CONTEXT))).toBe(0);
    expect(windowQueries).toBeGreaterThan(0);
  }, 30_000);
});
