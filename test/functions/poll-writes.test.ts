import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { CHAIN_MS, type PollSummary, type PollTimer } from "@fleet-alerts/core/poller";
import { type Simulator, start } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPollHandler } from "../../packages/functions/src/poll.js";
import { lambdaContext } from "../../packages/local/src/delivery.js";
import { type Emulators, startEmulators } from "../../packages/local/src/emulators.js";

// What a chain's polls write, counted by the emulator (every write request, refused or not).
let emulators: Emulators;
let simulator: Simulator;
let poll: ReturnType<typeof createPollHandler>;

beforeAll(async () => {
  [emulators, simulator] = await Promise.all([
    startEmulators(),
    start({ seed: 71, devices: 2, historyHours: 1 }),
  ]);
  poll = createPollHandler({
    ...emulators.env(),
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify([{ id: "west", baseUrl: simulator.url, username: "demo" }]),
    DEVICE_CLOUD_PASSWORD: "demo",
    POLL_EVERY_SECONDS: "5",
  });
});
afterAll(async () => {
  await simulator?.close();
  await emulators?.close();
});

const WRITES = ["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem"].map((name) => `DynamoDB ${name}`);

/** One poll of the chain started at `startMs`, planned at `plannedMs`: its summary and its writes. */
async function timed(startMs: number, plannedMs: number): Promise<{ summary?: PollSummary; writes: number }> {
  const timer: PollTimer = {
    kind: "poll-timer",
    account: "west",
    plannedMs,
    untilMs: startMs + CHAIN_MS,
    failures: 0,
  };
  const before = await emulators.requestCounts();
  const [summary] = (await poll(
    { Records: [{ messageId: `m${plannedMs}`, body: JSON.stringify(timer) }] },
    lambdaContext(60),
  )) as PollSummary[];
  const after = await emulators.requestCounts();
  const writes = WRITES.reduce((total, name) => total + (after[name] ?? 0) - (before[name] ?? 0), 0);
  return { ...(summary && { summary }), writes };
}

const deviceid = () => simulator.control.devices()[0]?.deviceid;

describe("a chain's polls", () => {
  it("write nothing when they find nothing, two items for events that alert nobody, and give the lease up at the chain's end", async () => {
    await poll({ account: "west" }, lambdaContext(60)); // the watchdog: sets the cursor, starts the chain
    // The chain it started: its first timer, 5 s on.
    const first = await emulators.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: emulators.queues.pollTimer, WaitTimeSeconds: 10 }),
    );
    const startMs = (JSON.parse(first.Messages?.[0]?.Body ?? "{}") as PollTimer).untilMs - CHAIN_MS;

    expect(await timed(startMs, startMs + 5_000)).toMatchObject({ writes: 0 });

    // An event no rule takes (the spec allows codes outside its table): the lease taken, the
    // cursor moved; the lease left to the chain's next poll, not released.
    simulator.control.injectEvent({ appdevid: 200, deviceid: deviceid() });
    expect(await timed(startMs, startMs + 10_000)).toMatchObject({
      summary: { outcome: "caught-up", eventsRead: 1 },
      writes: 2,
    });
    // A copy of that timer finds the chain's next poll's lease is not its to take.
    simulator.control.injectEvent({ appdevid: 200, deviceid: deviceid() });
    expect(await timed(startMs, startMs + 10_000)).toMatchObject({
      summary: { outcome: "locked", eventsRead: 0 },
      writes: 1, // the refused take
    });
    // The next poll takes it over, and reads what the copy left.
    expect(await timed(startMs, startMs + 15_000)).toMatchObject({
      summary: { outcome: "caught-up", eventsRead: 1 },
      writes: 2,
    });
    // The chain's last poll (planned 55 s in) finds nothing: it gives the lease up, for the next
    // chain's first poll to take at once. Only that one write.
    expect(await timed(startMs, startMs + 55_000)).toMatchObject({ writes: 1 });
    simulator.control.injectEvent({ appdevid: 200, deviceid: deviceid() });
    const [next] = (await poll({ account: "west" }, lambdaContext(60))) as PollSummary[];
    expect(next).toMatchObject({ outcome: "caught-up", eventsRead: 1 });
  });
});
