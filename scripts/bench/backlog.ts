import { PublishCommand } from "@aws-sdk/client-sns";
import { DeviceCloudClient } from "@fleet-alerts/core/devicecloud";
import { orderAfter } from "@fleet-alerts/core/poller";
import { start } from "@fleet-alerts/simulator";
import { startEmulators } from "../../packages/functions/src/local/emulators.js";
import { createPollHandler } from "../../packages/functions/src/poll.js";

export interface BacklogFigures {
  events: number;
  alerts: number;
  pipelineSeconds: number;
  eventsPerSecond: number;
  alertsPerSecond: number;
  rawReadEventsPerSecond: number;
  naiveAlertsPerSecond: number;
}

const ACCOUNT = { username: "demo", password: "demo" };

/**
 * A backlog of about 10,000 new events, about a fifth of them alerting, caught up by the real poll
 * handler on dynalite and fauxqs. Baselines in the same run: the client alone reading the same
 * events, and a naive loop publishing one alert per SNS Publish call.
 */
export async function measureBacklog(): Promise<BacklogFigures> {
  const emulators = await startEmulators();
  const simulator = await start({ seed: 7, devices: 60, historyHours: 1 });
  try {
    const rulesFile = `${process.cwd()}/.build/bench-rules.json`;
    const { writeFile } = await import("node:fs/promises");
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

    const started = performance.now();
    const [summary] = await poll({}, context);
    const pipelineSeconds = (performance.now() - started) / 1000;
    const alerts = summary?.alertsPublished ?? 0;

    // The naive baseline: one Publish call per alert, no batching, for the same number of alerts.
    const naiveStarted = performance.now();
    const naiveCount = Math.min(alerts, 1_000);
    for (let index = 0; index < naiveCount; index++) {
      await emulators.clients.sns.send(
        new PublishCommand({ TopicArn: emulators.topicArn, Message: `alert ${index}`, Subject: "naive" }),
      );
    }
    const naiveSeconds = (performance.now() - naiveStarted) / 1000;

    return {
      events: backlog.length,
      alerts,
      pipelineSeconds: Math.round(pipelineSeconds * 100) / 100,
      eventsPerSecond: Math.round(backlog.length / pipelineSeconds),
      alertsPerSecond: Math.round(alerts / pipelineSeconds),
      rawReadEventsPerSecond: Math.round(read / rawSeconds),
      naiveAlertsPerSecond: Math.round(naiveCount / naiveSeconds),
    };
  } finally {
    await simulator.close();
    await emulators.close();
  }
}
