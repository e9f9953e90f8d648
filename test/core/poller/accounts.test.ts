import type { FaultRule } from "@fleet-alerts/simulator";
import { type Simulator, start } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CursorStore } from "../../../packages/core/src/cursor/index.js";
import { createPollHandler } from "../../../packages/functions/src/poll.js";
import { tableRef } from "../../../packages/functions/src/runtime.js";
import { type Emulators, startEmulators } from "../../support/emulators.js";

// Two device clouds as two accounts of one stage: "north" answers at once, "south" is slow or fails.
let emulators: Emulators;
let north: Simulator;
let south: Simulator;
let env: Record<string, string>;

beforeAll(async () => {
  [emulators, north, south] = await Promise.all([
    startEmulators(),
    start({ seed: 11, devices: 3, historyHours: 1 }),
    start({ seed: 12, devices: 3, historyHours: 1 }),
  ]);
  env = {
    ...emulators.env(),
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify([
      { id: "north", baseUrl: north.url, username: "demo", timeoutMs: 5_000 },
      { id: "south", baseUrl: south.url, username: "demo", timeoutMs: 5_000 },
    ]),
    DEVICE_CLOUD_PASSWORD: "demo",
    DEADLINE_MARGIN_SECONDS: "1",
  };
});
afterAll(async () => {
  await Promise.all([north?.close(), south?.close()]);
  await emulators?.close();
});

/** One run of every account (or the one a schedule names), with `seconds` of Lambda time (the deadline margin is 1 s). */
const run = (event: unknown, seconds: number) =>
  createPollHandler(env)(event, { getRemainingTimeInMillis: () => (seconds + 1) * 1000 });

/** When each tick of an account read the event log, in ms from `since`. */
const eventReads = (simulator: Simulator, since: number) =>
  simulator.control.requests
    .filter((request) => request.endpoint === "eventquery")
    .map((request) => request.at.getTime() - since);

const cursorOf = (account: string) => new CursorStore(tableRef(env, emulators.tableName)).read(account);

describe("accounts polled side by side", () => {
  it("polls the healthy account on time while the other's device cloud is slow, each with its own cursor", async () => {
    const slow: FaultRule = { endpoint: "eventquery", kind: "latency", latencyMs: 1_200, probability: 1 };
    south.control.faults.add(slow);
    const startedMs = Date.now();
    const summaries = await run({}, 10);
    south.control.faults.clear();
    // North's whole poll was over before south's first answer came: polled one after the other,
    // north would have waited for all of south's 1.2-second answers.
    const northReads = eventReads(north, startedMs);
    expect(northReads.length).toBeGreaterThan(0);
    expect(Math.max(...northReads)).toBeLessThan(1_000);
    expect(Date.now() - startedMs).toBeGreaterThan(1_200);
    expect(summaries.map((summary) => summary.account).sort()).toEqual(["north", "south"]);
    const [northCursor, southCursor] = [await cursorOf("north"), await cursorOf("south")];
    expect(northCursor).toBe(north.control.events().at(-1)?.serialno);
    expect(southCursor).toBe(south.control.events().at(-1)?.serialno);
  });

  it("polls the healthy account when the other fails, and reports the failure after", async () => {
    north.control.resetRequests();
    south.control.faults.add({ endpoint: "eventquery", kind: "status500", probability: 1 });
    const before = await cursorOf("south");
    north.control.advance(10 * 60_000);
    await expect(run({}, 2.5)).rejects.toThrow(/poll failed for south/);
    south.control.faults.clear();
    expect(await cursorOf("north")).toBe(north.control.events().at(-1)?.serialno);
    expect(await cursorOf("south")).toBe(before);
  });

  it("polls only the account a schedule names", async () => {
    north.control.resetRequests();
    south.control.resetRequests();
    const summaries = await run({ account: "south" }, 0.5);
    expect(summaries.map((summary) => summary.account)).toEqual(["south"]);
    expect(eventReads(north, 0)).toEqual([]);
    await expect(run({ account: "west" }, 0.5)).rejects.toThrow("unknown account west");
  });
});
