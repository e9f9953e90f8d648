import { mkdir, writeFile } from "node:fs/promises";
import { PublishCommand } from "@aws-sdk/client-sns";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { DeviceCloudClient } from "@fleet-alerts/core/devicecloud";
import { orderAfter } from "@fleet-alerts/core/poller";
import { createPollHandler } from "../../packages/functions/src/poll.js";
import { startEmulators } from "../../packages/local/src/emulators.js";
import { forkSimulator } from "./remote-simulator.js";

export interface BacklogFigures {
  events: number;
  alerts: number;
  pipelineSeconds: number;
  eventsPerSecond: number;
  alertsPerSecond: number;
  rawReadEventsPerSecond: number;
  naiveAlertsPerSecond: number;
  /** The emulator's own ceiling: conditional PutItems a second, 25 at a time, as alerts are recorded. */
  dynaliteConditionalPutsPerSecond: number;
  /** AWS requests the catch-up made, by "<service> <operation>". */
  requests: Record<string, number>;
  /** A poll that finds nothing new: its duration and requests (what every scheduled run costs). */
  idlePoll: { milliseconds: number; requests: Record<string, number> };
  /** The /api/gps calls the catch-up made to place its alerts at their events. */
  gpsCalls: number;
  /** The same backlog caught up by accounts whose GPS lookups are off (budget 0); seconds are means. */
  withoutContext: { pipelineSeconds: number; alertsPerSecond: number };
  /** The catch-ups that warm the process up, with context, in order: not counted in the figures. */
  warmUpAlertsPerSecond: number[];
}

const ACCOUNT = { username: "demo", password: "demo" };
/** Publishes of each of the naive loop's three timings: 1,000 in all, about a second. */
const NAIVE_PUBLISHES_EACH = 334;
/**
 * Catch-ups that warm the process up before the measured ones. V8 is still compiling the catch-up's
 * code through the second: in four series of eight catch-ups in one process (with context), the
 * first ran 37% slower than the fourth to eighth, the second 14% and the third 4% (without context,
 * one series: 28%, 18%, 9%). With one warm-up, the first measured catch-up (with context) paid the
 * second's 14%, which the ABBA order, made for drift that is even along a run, does not cancel.
 */
const WARM_UP_CATCH_UPS = 2;

/** The backlog's rules: about a quarter of the simulator's events alert, far more than a fleet's 2%. */
export function writeBacklogRules(file: string): Promise<void> {
  return writeFile(
    file,
    JSON.stringify({
      rules: [
        { id: "speed", events: [13], severity: "warning" },
        { id: "shock", events: [16], severity: "critical" },
      ],
    }),
  );
}

/**
 * A backlog of about 10,000 new events, about a quarter of them alerting, caught up by the real poll
 * handler on dynalite and fauxqs (the mean of two catch-ups). Baselines in the same run: the same
 * catch-up without incident context (accounts with /api/gps lookups off), the client alone reading
 * the same events, and a naive loop publishing one alert per SNS Publish (timed in three parts
 * among the catch-ups).
 */
export async function measureBacklog(): Promise<BacklogFigures> {
  // The services, and the device cloud, run in processes of their own: in AWS they never share the
  // poller's CPU.
  const emulators = await startEmulators({ separateProcess: true });
  const simulator = await forkSimulator({ seed: 7, devices: 60, historyHours: 1 });
  try {
    await mkdir(".build", { recursive: true });
    const rulesFile = `${process.cwd()}/.build/bench-rules.json`;
    await writeBacklogRules(rulesFile);
    const pollerOf = (account: Record<string, unknown>) =>
      createPollHandler(
        {
          ...emulators.env(),
          DEVICE_CLOUD_ACCOUNTS: JSON.stringify([
            { baseUrl: simulator.url, username: "demo", rulesFile, ...account },
          ]),
          DEVICE_CLOUD_PASSWORD: "demo",
        },
        { logger: { info: () => undefined, warn: () => undefined, error: () => undefined } },
      );
    // The same backlog six times, each by an account with its own cursor: twice to warm up (the
    // first catch-ups in a process pay for compiling the code: WARM_UP_CATCH_UPS), then with
    // incident context (GPS lookups on), without (off), without, with. The ABBA order cancels what
    // drifts along a run (the table growing), which otherwise favours whichever goes first.
    const poll = pollerOf({ id: "bench" });
    const warmUps = Array.from({ length: WARM_UP_CATCH_UPS }, (_, index) =>
      pollerOf({ id: `bench-warm-up-${index + 1}` }),
    );
    const pollers = {
      with: [poll, pollerOf({ id: "bench-b" })],
      without: [
        pollerOf({ id: "bench-plain", gpsLookupBudgetMs: 0 }),
        pollerOf({ id: "bench-plain-b", gpsLookupBudgetMs: 0 }),
      ],
    };
    const context = { getRemainingTimeInMillis: () => 600_000 };
    const [first] = await poll({}, context); // sets the cursor at the newest event
    // The same for the other cursors.
    for (const other of [...warmUps, ...pollers.with.slice(1), ...pollers.without]) await other({}, context);
    const cursor = BigInt(first?.cursor ?? "0");
    while ((await simulator.eventsAfter(cursor)) < 10_000) await simulator.advance(3_600_000);
    const backlog = await simulator.eventsAfter(cursor);

    const client = new DeviceCloudClient({ baseUrl: simulator.url, credentials: ACCOUNT });
    const readStarted = performance.now();
    let read = 0;
    for (let after = cursor; ; ) {
      const events = orderAfter((await client.queryEvents({ afterSerialno: after })).events, after);
      if (events.length === 0) break;
      read += events.length;
      after = events[events.length - 1]?.serialno as bigint;
    }
    const rawSeconds = (performance.now() - readStarted) / 1000;

    const catchUp = async (handler: typeof poll) => {
      const before = await emulators.requestCounts();
      const gpsBefore = await simulator.gpsCalls();
      const started = performance.now();
      const [summary] = await handler({}, context);
      return {
        seconds: (performance.now() - started) / 1000,
        alerts: summary?.alertsPublished ?? 0,
        requests: difference(await emulators.requestCounts(), before),
        gpsCalls: (await simulator.gpsCalls()) - gpsBefore,
      };
    };
    // The naive baseline: one Publish call per alert, no batching, nothing recorded. It is timed
    // three times, before, between and after the catch-ups, and the three are summed: the machine's
    // speed drifts over a run, and a baseline taken at one moment only is compared with catch-ups
    // taken at others.
    let naivePublished = 0;
    let naiveSeconds = 0;
    const naiveLoop = async (count: number) => {
      const started = performance.now();
      for (let index = 0; index < count; index++) {
        await emulators.clients.sns.send(
          new PublishCommand({
            TopicArn: emulators.topicArn,
            Message: `alert ${naivePublished + index}`,
            Subject: "naive",
          }),
        );
      }
      naiveSeconds += (performance.now() - started) / 1000;
      naivePublished += count;
    };
    const warmUpAlertsPerSecond: number[] = [];
    for (const warmUp of warmUps) {
      const warmed = await catchUp(warmUp);
      warmUpAlertsPerSecond.push(Math.round(warmed.alerts / warmed.seconds));
    }
    await naiveLoop(NAIVE_PUBLISHES_EACH);
    const withA = await catchUp(pollers.with[0] as typeof poll);
    const withoutA = await catchUp(pollers.without[0] as typeof poll);
    await naiveLoop(NAIVE_PUBLISHES_EACH);
    const withoutB = await catchUp(pollers.without[1] as typeof poll);
    const withB = await catchUp(pollers.with[1] as typeof poll);
    await naiveLoop(NAIVE_PUBLISHES_EACH);
    const { alerts, requests, gpsCalls } = withA;
    const pipelineSeconds = (withA.seconds + withB.seconds) / 2;
    const plainSeconds = (withoutA.seconds + withoutB.seconds) / 2;

    const idleBefore = await emulators.requestCounts();
    const idleStarted = performance.now();
    await poll({}, context);
    const idlePoll = {
      milliseconds: Math.round(performance.now() - idleStarted),
      requests: difference(await emulators.requestCounts(), idleBefore),
    };

    const puts = 5_000;
    const putsStarted = performance.now();
    for (let index = 0; index < puts; index += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, offset) =>
          emulators.clients.documents.send(
            new PutCommand({
              TableName: emulators.tableName,
              Item: { pk: "ceiling", sk: String(index + offset), message: "x".repeat(1_500) },
              ConditionExpression: "attribute_not_exists(pk)",
            }),
          ),
        ),
      );
    }
    const putsSeconds = (performance.now() - putsStarted) / 1000;

    return {
      events: backlog,
      alerts,
      pipelineSeconds: Math.round(pipelineSeconds * 100) / 100,
      eventsPerSecond: Math.round(backlog / pipelineSeconds),
      alertsPerSecond: Math.round(alerts / pipelineSeconds),
      rawReadEventsPerSecond: Math.round(read / rawSeconds),
      naiveAlertsPerSecond: Math.round(naivePublished / naiveSeconds),
      dynaliteConditionalPutsPerSecond: Math.round(puts / putsSeconds),
      requests,
      idlePoll,
      gpsCalls,
      withoutContext: {
        pipelineSeconds: Math.round(plainSeconds * 100) / 100,
        alertsPerSecond: Math.round(withoutA.alerts / plainSeconds),
      },
      warmUpAlertsPerSecond,
    };
  } finally {
    await simulator.close();
    await emulators.close();
  }
}

function difference(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([operation, count]) => [operation, count - (before[operation] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}
