import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import type { Observation } from "@fleet-alerts/core";
import { LEASE_MARGIN_MS } from "@fleet-alerts/core/cursor";
import { CHAIN_MS, type PollStep, type PollSummary, type PollTimer } from "@fleet-alerts/core/poller";
import { getItem, keys } from "@fleet-alerts/core/store";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConfirmHandler } from "../../packages/functions/src/confirm.js";
import { createPollHandler } from "../../packages/functions/src/poll.js";
import { lambdaContext } from "../../packages/local/src/delivery.js";
import { sqsEvent } from "../../packages/local/src/sqs-event.js";
import { alertsOf, drainInbox, type Pipeline, startPipeline } from "../core/poller/pipeline.js";
import { holdAt } from "../support/hold.js";

// The interleavings of docs/design/exactly-once.md, "The lease and the fence", with the real poll
// and confirm handlers on the emulators and the simulator: every alert reaches the topic once.

const RULES = [
  { id: "speed", events: [13], severity: "warning" as const },
  { id: "shock", events: [16], severity: "critical" as const },
  { id: "offline", events: [3], severity: "info" as const, offlineForMinutes: 5 },
];

let pipeline: Pipeline;
beforeAll(async () => {
  pipeline = await startPipeline({
    rules: RULES,
    simulator: { seed: 23, devices: 6, historyHours: 1 },
    accounts: [{ id: "stalled" }, { id: "copied" }, { id: "offline" }],
    env: { DEADLINE_MARGIN_SECONDS: "1" },
  });
});
afterAll(() => pipeline?.close());

const observed: Observation[] = [];
const observer = { observe: (observation: Observation) => void observed.push(observation) };

/**
 * A poll handler whose polls stop at `checkpoint`; leases outlive an invocation by 300 ms. Polled on
 * a chain every 5 s with `chained`, else once per watchdog run (the lease released at its end).
 */
function pollHandler(checkpoint?: (step: PollStep) => Promise<void>, chained = false) {
  return createPollHandler(chained ? { ...pipeline.env, POLL_EVERY_SECONDS: "5" } : pipeline.env, {
    observer,
    pollSizes: { chunkEvents: 50 },
    pollSeams: { leaseMarginMs: 300, ...(checkpoint && { checkpoint }) },
  });
}

/** Sets the account's cursor (its first poll), then lets the simulator log an hour of events. */
async function startedWithBacklog(account: string): Promise<void> {
  await pollHandler()({ account }, lambdaContext(60));
  pipeline.simulator.control.advance(3_600_000);
  await drainInbox(pipeline.emulators); // the earlier accounts' alerts
}

/** The alerts of `account` on the topic: waiting for `atLeast` messages, then whatever else comes. */
async function keysOf(account: string, atLeast = 0): Promise<string[]> {
  const messages = [
    ...(await pipeline.emulators.readInbox({ atLeast, waitMs: 5_000 })),
    ...(await drainInbox(pipeline.emulators)),
  ];
  return alertsOf(messages, account).map((alert) => alert.key);
}

describe("the real poll handler", () => {
  it("fences a poll that outlives its lease: the poll that took it over sends every alert once, the stalled one nothing", async () => {
    await startedWithBacklog("stalled");
    // A: an invocation of 4 s, held as its first chunk's records are written (a starved process).
    const hold = holdAt<PollStep>("alerts-recorded");
    const stalled = pollHandler(hold.checkpoint)({ account: "stalled" }, lambdaContext(4)) as Promise<
      PollSummary[]
    >;
    await hold.arrived;
    // Its invocation over and its lease's margin gone, B (the next minute's watchdog) takes the lease.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const [caughtUp] = (await pollHandler()({ account: "stalled" }, lambdaContext(60))) as PollSummary[];
    expect(caughtUp).toMatchObject({ outcome: "caught-up" });
    expect(caughtUp?.alertsPublished).toBeGreaterThan(5);
    hold.release();
    const [fenced] = await stalled;
    expect(fenced).toMatchObject({ outcome: "fenced", alertsPublished: 0 });
    expect(observed).toContainEqual(expect.objectContaining({ type: "poll-fenced", account: "stalled" }));
    const keys = await keysOf("stalled");
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(caughtUp?.alertsPublished as number);
  });

  it("lets one copy of a timer take the lease over; the other is refused and ends its copy of the chain", async () => {
    await startedWithBacklog("copied");
    const poll = pollHandler(undefined, true);
    // The watchdog: it takes the lease, catches up and leaves the lease to its chain's next poll,
    // whose timer names the token.
    const [watched] = (await poll({ account: "copied" }, lambdaContext(60))) as PollSummary[];
    expect(watched?.alertsPublished).toBeGreaterThan(0);
    const timer = await nextTimer();
    expect(timer.lease).toEqual(expect.any(String));
    pipeline.simulator.control.advance(3_600_000);
    // SQS delivers that timer twice, to two invocations at once.
    const copies = await Promise.all(
      ["one", "two"].map(
        (copy) =>
          poll({ Records: [{ messageId: copy, body: JSON.stringify(timer) }] }, lambdaContext(60)) as Promise<
            PollSummary[]
          >,
      ),
    );
    const outcomes = copies.map(([summary]) => summary?.outcome).sort();
    expect(outcomes).toEqual(["caught-up", "locked"]);
    // One chain goes on: the copy that was refused sent no timer.
    const next = await timersSent();
    expect(next).toHaveLength(1);
    expect(next[0]?.lease).not.toBe(timer.lease);
    const keys = await keysOf("copied");
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(
      (watched?.alertsPublished as number) + copies.flat().reduce((sum, s) => sum + s.alertsPublished, 0),
    );
  });
});

describe("the lease in the local mode", () => {
  it("is timed on the real clock however fast the business clock runs", async () => {
    await startedWithBacklog("stalled");
    // The local mode's clock, 300 times faster than real time (and a day ahead).
    const startedMs = Date.now();
    const fast = () => startedMs + 86_400_000 + (Date.now() - startedMs) * 300;
    const hold = holdAt<PollStep>("alerts-recorded");
    const polling = createPollHandler(pipeline.env, {
      observer,
      now: fast,
      pollSeams: { checkpoint: hold.checkpoint },
    })({ account: "stalled" }, lambdaContext(30));
    await hold.arrived;
    const lease = await getItem(
      { documents: pipeline.emulators.clients.documents, tableName: pipeline.emulators.tableName },
      keys.account("stalled"),
      keys.lock,
    );
    hold.release();
    await polling;
    // Until its 30 s invocation ends, and the margin: real milliseconds, not the fast clock's.
    expect(lease?.expiresAtMs).toBeGreaterThan(Date.now() + 20_000);
    expect(lease?.expiresAtMs).toBeLessThanOrEqual(startedMs + 30_000 + LEASE_MARGIN_MS + 1_000);
  });
});

describe("the real confirm handler", () => {
  it("alerts once for an Offline check delivered twice in one batch", async () => {
    const { simulator } = pipeline;
    await pollHandler()({ account: "offline" }, lambdaContext(60)); // the cursor set
    const deviceid = simulator.control.devices()[0]?.deviceid as string;
    simulator.control.setOnline(deviceid, false);
    // Read once the check is due: its message comes at once.
    simulator.control.advance(11 * 60_000);
    await pollHandler()({ account: "offline" }, lambdaContext(60));
    const check = (await receiveAll(pipeline.emulators.queues.confirm)).find((message) => {
      const job = JSON.parse(message.Body ?? "{}") as { account?: string; deviceid?: string };
      return job.account === "offline" && job.deviceid === deviceid;
    });
    expect(check).toBeDefined();
    const confirm = createConfirmHandler(pipeline.env, {
      observer,
      now: () => simulator.control.now().getTime(),
    });
    const twice = sqsEvent([
      { ...check, MessageId: "copy-1" },
      { ...check, MessageId: "copy-2" },
    ]);
    expect((await confirm(twice, {} as Context)).batchItemFailures).toEqual([]);
    const offline = (await keysOf("offline", 1)).filter((key) => key.endsWith("/offline"));
    expect(offline).toHaveLength(1);
    expect(observed.filter((seen) => seen.type === "offline-busy")).toHaveLength(1);
  });
});

/** Every message now in the queue (deleted by its visibility timeout's end only: read once). */
async function receiveAll(queueUrl: string) {
  const all = [];
  for (;;) {
    const { Messages = [] } = await pipeline.emulators.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    if (Messages.length === 0) return all;
    all.push(...Messages);
  }
}

/**
 * The chain's timers sent since the last read: waits out their delay (whole seconds, at most the
 * 5 s interval), then a moment for any sent beside them.
 */
async function timersSent(): Promise<PollTimer[]> {
  const timers: PollTimer[] = [];
  for (let waitSeconds = 7; ; waitSeconds = 2) {
    const { Messages = [] } = await pipeline.emulators.clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: pipeline.emulators.queues.pollTimer,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: waitSeconds,
      }),
    );
    if (Messages.length === 0) return timers;
    timers.push(...Messages.map((message) => JSON.parse(message.Body ?? "{}") as PollTimer));
  }
}

async function nextTimer(): Promise<PollTimer> {
  const [timer] = await timersSent();
  if (!timer || timer.untilMs - CHAIN_MS > Date.now()) throw new Error("no timer");
  return timer;
}
