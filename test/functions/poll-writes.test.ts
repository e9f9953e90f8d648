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

/** The timers the chain's polls sent, as SQS holds them (their delays are waited out). */
async function timersSent(waitSeconds: number): Promise<PollTimer[]> {
  const { Messages = [] } = await emulators.clients.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: emulators.queues.pollTimer,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: waitSeconds,
    }),
  );
  return Messages.map((message) => JSON.parse(message.Body ?? "{}") as PollTimer);
}

/**
 * One poll of a chain by its timer (`timer` as sent, at `plannedMs`): its summary, its writes, and
 * the next timer of the chain (read from the queue; a moment only when none is expected).
 */
async function timed(timer: PollTimer, plannedMs: number, { followed = true } = {}) {
  const before = await emulators.requestCounts();
  const [summary] = (await poll(
    { Records: [{ messageId: `m${plannedMs}`, body: JSON.stringify({ ...timer, plannedMs }) }] },
    lambdaContext(60),
  )) as PollSummary[];
  const after = await emulators.requestCounts();
  const writes = WRITES.reduce((total, name) => total + (after[name] ?? 0) - (before[name] ?? 0), 0);
  const [next] = await timersSent(followed ? 6 : 1);
  return { ...(summary && { summary }), writes, next };
}

const deviceid = () => simulator.control.devices()[0]?.deviceid as string;

describe("a chain's polls", () => {
  it("write nothing when they find nothing, two items for events that alert nobody, and give the lease up at the chain's end", async () => {
    await poll({ account: "west" }, lambdaContext(60)); // the watchdog: sets the cursor, starts the chain
    // The chain it started: its first timer, 5 s on, carrying the lease the watchdog left it.
    const [first] = await timersSent(10);
    const startMs = (first as PollTimer).untilMs - CHAIN_MS;
    expect(first?.lease).toEqual(expect.any(String));

    const idle = await timed(first as PollTimer, startMs + 5_000);
    expect(idle).toMatchObject({ writes: 0, next: { lease: first?.lease } });

    // An event no rule takes (the spec allows codes outside its table): the lease taken over, the
    // cursor moved; the lease left to the chain's next poll under this one's token, not released.
    simulator.control.injectEvent({ appdevid: 200, deviceid: deviceid() });
    const taken = await timed(idle.next as PollTimer, startMs + 10_000);
    expect(taken).toMatchObject({ summary: { outcome: "caught-up", eventsRead: 1 }, writes: 2 });
    expect(taken.next?.lease).not.toBe(first?.lease);
    // A copy of the timer that poll took the lease over by finds it is not its to take: refused,
    // and its copy of the chain ends (no timer).
    simulator.control.injectEvent({ appdevid: 200, deviceid: deviceid() });
    expect(await timed(idle.next as PollTimer, startMs + 10_000, { followed: false })).toMatchObject({
      summary: { outcome: "locked", eventsRead: 0 },
      writes: 1, // the refused take
      next: undefined,
    });
    // The next poll takes it over by the token it was handed, and reads what the copy left.
    const followed = await timed(taken.next as PollTimer, startMs + 15_000);
    expect(followed).toMatchObject({ summary: { outcome: "caught-up", eventsRead: 1 }, writes: 2 });
    // The chain's last poll (planned 55 s in) finds nothing: it gives the lease up, for the next
    // chain's first poll to take at once. Only that one write.
    const last = await timed(followed.next as PollTimer, startMs + 55_000, { followed: false });
    expect(last).toMatchObject({ writes: 1, next: undefined });
    simulator.control.injectEvent({ appdevid: 200, deviceid: deviceid() });
    const [next] = (await poll({ account: "west" }, lambdaContext(60))) as PollSummary[];
    expect(next).toMatchObject({ outcome: "caught-up", eventsRead: 1 });
  });
});
