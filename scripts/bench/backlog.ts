import { mkdir, writeFile } from "node:fs/promises";
import { PublishCommand } from "@aws-sdk/client-sns";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { DeviceCloudClient } from "@fleet-alerts/core/devicecloud";
import { orderAfter } from "@fleet-alerts/core/poller";
import { start } from "@fleet-alerts/simulator";
import { createPollHandler } from "../../packages/functions/src/poll.js";
import { startEmulators } from "../../packages/local/src/emulators.js";

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
}

const ACCOUNT = { username: "demo", password: "demo" };

/**
 * A backlog of about 10,000 new events, about a quarter of them alerting, caught up by the real poll
 * handler on dynalite and fauxqs. Baselines in the same run: the client alone reading the same
 * events, and a naive loop publishing one alert per SNS Publish call.
 */
export async function measureBacklog(): Promise<BacklogFigures> {
  // The services run in a process of their own: in AWS they never share the poller's CPU.
  const emulators = await startEmulators({ separateProcess: true });
  const simulator = await start({ seed: 7, devices: 60, historyHours: 1 });
  try {
    await mkdir(".build", { recursive: true });
    const rulesFile = `${process.cwd()}/.build/bench-rules.json`;
    await writeFile(
      rulesFile,
      JSON.stringify({
        rules: [
          { id: "speed", events: [13], severity: "warning" },
          { id: "shock", events: [16], severity: "critical" },
        ],
      }),
    );
    const env = {
      ...emulators.env(),
      DEVICE_CLOUD_ACCOUNTS: JSON.stringify([
        { id: "bench", baseUrl: simulator.url, username: "demo", rulesFile },
      ]),
      DEVICE_CLOUD_PASSWORD: "demo",
    };
    const poll = createPollHandler(env, {
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const context = { getRemainingTimeInMillis: () => 600_000 };
    const [first] = await poll({}, context); // sets the cursor at the newest event
    const cursor = BigInt(first?.cursor ?? "0");
    while (simulator.control.events().filter((event) => event.serialno > cursor).length < 10_000) {
      simulator.control.advance(3_600_000);
    }
    const backlog = simulator.control.events().filter((event) => event.serialno > cursor);

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

    const before = await emulators.requestCounts();
    const started = performance.now();
    const [summary] = await poll({}, context);
    const pipelineSeconds = (performance.now() - started) / 1000;
    const alerts = summary?.alertsPublished ?? 0;
    const requests = difference(await emulators.requestCounts(), before);

    const idleBefore = await emulators.requestCounts();
    const idleStarted = performance.now();
    await poll({}, context);
    const idlePoll = {
      milliseconds: Math.round(performance.now() - idleStarted),
      requests: difference(await emulators.requestCounts(), idleBefore),
    };

    // The naive baseline: one Publish call per alert, no batching, for the same number of alerts.
    const naiveStarted = performance.now();
    const naiveCount = Math.min(alerts, 1_000);
    for (let index = 0; index < naiveCount; index++) {
      await emulators.clients.sns.send(
        new PublishCommand({ TopicArn: emulators.topicArn, Message: `alert ${index}`, Subject: "naive" }),
      );
    }
    const naiveSeconds = (performance.now() - naiveStarted) / 1000;

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
      events: backlog.length,
      alerts,
      pipelineSeconds: Math.round(pipelineSeconds * 100) / 100,
      eventsPerSecond: Math.round(backlog.length / pipelineSeconds),
      alertsPerSecond: Math.round(alerts / pipelineSeconds),
      rawReadEventsPerSecond: Math.round(read / rawSeconds),
      naiveAlertsPerSecond: Math.round(naiveCount / naiveSeconds),
      dynaliteConditionalPutsPerSecond: Math.round(puts / putsSeconds),
      requests,
      idlePoll,
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
