import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PurgeQueueCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { CHAIN_MS, type PollTimer } from "@fleet-alerts/core/poller";
import { describe, expect, it } from "vitest";
import { startLocalPipeline } from "../../packages/local/src/pipeline.js";
import { PollTimes } from "../support/poll-times.js";

// The local mode runs each account's chain as a stage does: a watchdog every minute and timers on
// fauxqs. Its chains are broken as a stage's can be, and heal the same way.
const EVERY_S = 2;

describe("the local mode's poll chains", () => {
  it("resume within a minute after their timers are lost, and a duplicated chain ends with its minute", async () => {
    const startedMs = Date.now();
    const polls = new PollTimes<"north" | "south">();
    const pipeline = await startLocalPipeline(
      {
        accounts: ["north", "south"],
        devices: 2,
        seed: 61,
        speed: 1,
        pollEverySeconds: EVERY_S,
        evidenceDir: join(await mkdtemp(join(tmpdir(), "fleet-alerts-chain-")), "evidence"),
        fleetTimeZone: "UTC",
        onPollInvocation: ({ accounts }) => {
          for (const account of accounts) polls.record(account as "north" | "south");
        },
      },
      () => undefined,
    );
    try {
      await polls.until(8);
      // Every timer waiting is lost (both accounts' chains stop); then south gets two timers of
      // the minute, as if its chain had been started twice.
      const { sqs } = pipeline.emulators.clients;
      await sqs.send(new PurgeQueueCommand({ QueueUrl: pipeline.emulators.queues.pollTimer }));
      const watchdogMs = startedMs + polls.firstAfter("south", -1) * 1000;
      for (const delaySeconds of [1, 2]) {
        const timer: PollTimer = {
          kind: "poll-timer",
          account: "south",
          plannedMs: Date.now() + delaySeconds * 1000,
          untilMs: watchdogMs + CHAIN_MS,
          failures: 0,
        };
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: pipeline.emulators.queues.pollTimer,
            MessageBody: JSON.stringify(timer),
            DelaySeconds: delaySeconds,
          }),
        );
      }
      await polls.until(84);
    } finally {
      await pipeline.stop();
    }

    // North: stopped, then the watchdog started it again within the minute; one chain after.
    expect(polls.count("north", 10, 55)).toBe(0);
    expect(polls.firstAfter("north", 10)).toBeLessThan(8 + 60);
    expect(polls.count("north", 66, 84)).toBeGreaterThanOrEqual(7);
    expect(polls.count("north", 66, 84)).toBeLessThanOrEqual(11);
    // South: two chains until the minute's end, then one.
    expect(polls.count("south", 12, 55)).toBeGreaterThanOrEqual(1.6 * (43 / EVERY_S));
    expect(polls.count("south", 66, 84)).toBeGreaterThanOrEqual(7);
    expect(polls.count("south", 66, 84)).toBeLessThanOrEqual(11);
  }, 150_000);
});
