import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { CursorStore } from "@fleet-alerts/core/cursor";
import { CHAIN_MS, type PollTimer } from "@fleet-alerts/core/poller";
import { type Simulator, start } from "@fleet-alerts/simulator";
import type { SQSEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPollHandler } from "../../packages/functions/src/poll.js";
import { tableRef } from "../../packages/functions/src/runtime.js";
import { consumers, every, lambdaContext, runLoops } from "../../packages/local/src/delivery.js";
import { type Emulators, startEmulators } from "../../packages/local/src/emulators.js";
import { PollTimes } from "../support/poll-times.js";

// Four accounts of one stage, each polled every 2 s by its chain, on the real handler, fauxqs
// delaying the timers and a watchdog every minute as deployed (infra/polling.ts). In the first
// minute each account's chain is broken in its own way (west's device cloud fails for good); the
// test then watches the second minute.
const EVERY_S = 2;
const ACCOUNTS = ["north", "south", "east", "west"] as const;
type Account = (typeof ACCOUNTS)[number];

let emulators: Emulators;
const simulators = new Map<Account, Simulator>();

beforeAll(async () => {
  emulators = await startEmulators();
  for (const [index, account] of ACCOUNTS.entries())
    simulators.set(account, await start({ seed: 40 + index, devices: 2, historyHours: 1 }));
});
afterAll(async () => {
  for (const simulator of simulators.values()) await simulator.close();
  await emulators?.close();
});

const accountOf = (body: string) => (JSON.parse(body) as PollTimer).account as Account;

describe("each account's chain of polls", () => {
  it("heals within a minute from a lost timer, a function failing for a while and a duplicated timer, one chain left each, and backs off a failing device cloud", async () => {
    const env = {
      ...emulators.env(),
      DEVICE_CLOUD_ACCOUNTS: JSON.stringify(
        ACCOUNTS.map((id) => ({ id, baseUrl: simulators.get(id)?.url, username: "demo" })),
      ),
      DEVICE_CLOUD_PASSWORD: "demo",
      POLL_EVERY_SECONDS: String(EVERY_S),
    };
    const handler = createPollHandler(env);
    const startedMs = Date.now();
    // When each account was polled (in seconds from the start): a watchdog run, or a timer of a
    // chain still in its minute (one past it is dropped unpolled).
    const polls = new PollTimes<Account>();
    const failing = new Set<Account>();
    const dropNext = new Set<Account>();

    const watchdog = async () => {
      for (const account of ACCOUNTS) {
        if (failing.has(account)) continue; // the function fails at once, as a bad deploy would
        polls.record(account);
        // A failed poll fails its run (west's), which the schedule does not run again.
        await handler({ account }, lambdaContext(60)).catch(() => undefined);
      }
    };
    // The poll-timer queue's event source mapping, one timer at a time per loop.
    const timers = async (event: SQSEvent) => {
      const records = event.Records.filter((record) => {
        const account = accountOf(record.body);
        if (!dropNext.delete(account)) return true;
        return false; // lost: consumed, never delivered
      });
      if (records.some((record) => failing.has(accountOf(record.body))))
        throw new Error("the function is failing");
      for (const record of records)
        if (Date.now() < (JSON.parse(record.body) as PollTimer).untilMs) polls.record(accountOf(record.body));
      if (records.length > 0) await handler({ Records: records }, lambdaContext(60));
      return { batchItemFailures: [] };
    };
    const loops = runLoops(
      [
        every(CHAIN_MS, watchdog),
        ...consumers(ACCOUNTS.length + 1, emulators.clients.sqs, emulators.queues.pollTimer, timers),
      ],
      () => undefined, // the failing function's errors: expected
    );
    const north = simulators.get("north") as Simulator;
    let missed: bigint | undefined;
    try {
      await polls.until(8);
      // North's next timer is lost; south's function fails for 20 s; east gets a second timer of
      // its chain's minute (a duplicate, as SQS may deliver, or a watchdog run twice).
      dropNext.add("north");
      failing.add("south");
      const duplicate: PollTimer = {
        kind: "poll-timer",
        account: "east",
        plannedMs: Date.now() + 1_000,
        untilMs: startedMs + CHAIN_MS,
        failures: 0,
      };
      await emulators.clients.sqs.send(
        new SendMessageCommand({
          QueueUrl: emulators.queues.pollTimer,
          MessageBody: JSON.stringify(duplicate),
          DelaySeconds: 1,
        }),
      );
      simulators.get("west")?.control.faults.add({ endpoint: "*", kind: "status500", probability: 1 });
      missed = north.control.injectEvent({
        appdevid: 13,
        deviceid: north.control.devices()[0]?.deviceid,
      }).serialno;
      await polls.until(28);
      failing.delete("south");
      await polls.until(82);
    } finally {
      await loops.stop();
    }

    // One chain: a poll every 2 s, 9 in the 18 s from 64 to 82 (the watchdog's one of them); two
    // chains would make about 18.
    const oneChain = [7, 11] as const;

    // North: its chain stopped with the lost timer (at 8 to 10 s), and the watchdog restarted it
    // within a minute; the event logged meanwhile was read then (the cursor passed it).
    expect(polls.count("north", 12, 58)).toBe(0);
    expect(polls.firstAfter("north", 12)).toBeLessThan(10 + 60);
    expect(polls.count("north", 64, 82)).toBeGreaterThanOrEqual(oneChain[0]);
    expect(polls.count("north", 64, 82)).toBeLessThanOrEqual(oneChain[1]);
    const cursor = await new CursorStore(tableRef(env, emulators.tableName)).read("north");
    expect(cursor).toBeGreaterThanOrEqual(missed as bigint);

    // South: nothing polled while the function failed; within a minute of its recovery it polls
    // again, one chain.
    expect(polls.count("south", 10, 28)).toBe(0);
    expect(polls.firstAfter("south", 28)).toBeLessThan(28 + 60);
    expect(polls.count("south", 64, 82)).toBeGreaterThanOrEqual(oneChain[0]);
    expect(polls.count("south", 64, 82)).toBeLessThanOrEqual(oneChain[1]);

    // East: two chains for the rest of that minute, then one.
    expect(polls.count("east", 12, 56)).toBeGreaterThanOrEqual(1.6 * (44 / EVERY_S));
    expect(polls.count("east", 64, 82)).toBeGreaterThanOrEqual(oneChain[0]);
    expect(polls.count("east", 64, 82)).toBeLessThanOrEqual(oneChain[1]);

    // West: its device cloud failing, the chain backed off (4, 8, 16 and 32 s between tries, not
    // 2), then ended; from the next minute on the watchdog alone tries, once a minute.
    expect(polls.count("west", 12, 58)).toBeGreaterThanOrEqual(2);
    expect(polls.count("west", 12, 58)).toBeLessThanOrEqual(4);
    expect(polls.count("west", 60, 82)).toBe(1);
  }, 150_000);
});
