/**
 * What evidence costs while its vehicle is offline (issue 31): alerts whose vehicles stay offline a
 * few days after the event, parked (this code) against today's retries (main before issue 31: a
 * record-map check after 60 s, doubling to SQS's 15 minutes, given up 48 hours after the event).
 * Parking is counted by running the real code (collectEvidence, the hourly sweep, the poller's
 * wake) against the simulator and the emulators on a virtual clock: device-cloud calls from the
 * simulator's request log, AWS requests from the emulators'. Today's retries are arithmetic over the
 * same delays (that code is gone). Time per invocation: cost.ts's round trips, assumed.
 */

import { AlertStore } from "../../packages/core/src/alerts/alert-store.js";
import { SnsAlertPublisher } from "../../packages/core/src/alerts/sns-publisher.js";
import { SQS_MAX_DELAY_SECONDS } from "../../packages/core/src/aws-limits.js";
import { DeviceCloudClient } from "../../packages/core/src/devicecloud/client.js";
import { collectEvidence, type EvidenceSettings } from "../../packages/core/src/evidence/collect.js";
import { evidenceJobSchema } from "../../packages/core/src/evidence/job.js";
import { ParkedJobStore } from "../../packages/core/src/evidence/parked-store.js";
import { S3EvidenceStore } from "../../packages/core/src/evidence/s3-evidence-store.js";
import { sweepParkedEvidence } from "../../packages/core/src/evidence/sweep.js";
import { PARKED_SWEEP_EVERY_MINUTES } from "../../packages/core/src/evidence/sweep-message.js";
import { wakeDevices } from "../../packages/core/src/evidence/wake.js";
import { NoticeClaims } from "../../packages/core/src/notices/claims.js";
import { ignoreObservations } from "../../packages/core/src/observer.js";
import { SqsSender } from "../../packages/core/src/queue/sqs-sender.js";
import { startEmulators } from "../../packages/local/src/emulators.js";
import { start } from "../../packages/simulator/src/index.js";
import { AWS_PRICES } from "./aws-prices.js";
import { FLEET } from "./cost.js";

/** The scenario: stated, not measured. */
export const PARKED_SCENARIO = {
  alertsPerMonth: 100,
  offlineDays: 3,
  retentionDays: 7,
  /** Every device's Online events: the poller looks for parked jobs at each (one Query per device and chunk). */
  devices: FLEET.devices,
  onlineEventsPerDevicePerDay: 2,
  /** The evidence function's memory (infra/evidence.ts). */
  memoryGb: 0.5,
  /** Today's: first retry delay, give-up. */
  retryDelaySeconds: 60,
  giveUpHours: 48,
} as const;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const SWEEPS_PER_MONTH = (730 * 60) / PARKED_SWEEP_EVERY_MINUTES;

export interface WaitingCost {
  /** Per alert whose vehicle is offline, and a month of them. */
  deviceCloudCallsPerAlert: number;
  deviceCloudCallsPerMonth: number;
  usdPerMonth: number;
  /** Alerts a month whose footage is given up while it is still on the card. */
  footageLostPerMonth: number;
}

export interface ParkedCostFigures {
  scenario: typeof PARKED_SCENARIO;
  today: WaitingCost & { invocationsPerAlert: number };
  parked: WaitingCost & {
    /** What one parked job cost, counted: device-cloud calls by endpoint, AWS requests by operation. */
    perAlert: { deviceCloud: Record<string, number>; aws: Record<string, number> };
    /** The hourly sweep of one account, counted: with jobs parked (one online-list call) and without. */
    sweep: { deviceCloud: Record<string, number>; aws: Record<string, number> };
  };
}

/** Billed Lambda time of an invocation that makes `calls` device-cloud calls and `requests` AWS requests. */
const lambdaUsd = (invocations: number, calls: number, requests: number) =>
  invocations * AWS_PRICES.lambda.request.usd +
  ((calls * FLEET.deviceCloudRoundTripMs + requests * FLEET.awsRoundTripMs) / 1000) *
    PARKED_SCENARIO.memoryGb *
    AWS_PRICES.lambda.armGbSecond.usd;

/** Today's: a record-map check per attempt, each an SQS send, receive and delete, until the vehicle is back or 48 h. */
function todaysRetries(): ParkedCostFigures["today"] {
  const { offlineDays, giveUpHours, retryDelaySeconds, alertsPerMonth } = PARKED_SCENARIO;
  const until = Math.min(offlineDays * DAY_MS, giveUpHours * HOUR_MS);
  let atMs = 0;
  let attempts = 0;
  for (; atMs <= until; attempts++)
    atMs += Math.min(SQS_MAX_DELAY_SECONDS, retryDelaySeconds * 2 ** attempts) * 1000;
  const usdPerAlert = lambdaUsd(attempts, attempts, 3) + attempts * 3 * AWS_PRICES.sqs.request.usd;
  return {
    invocationsPerAlert: attempts,
    deviceCloudCallsPerAlert: attempts,
    deviceCloudCallsPerMonth: attempts * alertsPerMonth,
    usdPerMonth: usdPerAlert * alertsPerMonth,
    footageLostPerMonth: offlineDays * 24 > giveUpHours ? alertsPerMonth : 0,
  };
}

/** The difference between two request counts, without the operations that did not change. */
function since(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([operation, count]) => [operation, count - (before[operation] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

export async function measureParkedCost(): Promise<ParkedCostFigures> {
  const clockStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const [emulators, simulator] = await Promise.all([
    startEmulators(),
    start({ seed: 1, devices: 4, historyHours: 3, clock: { start: clockStart } }),
  ]);
  try {
    const deviceid = simulator.control.devices()[0]?.deviceid as string;
    const table = { documents: emulators.clients.documents, tableName: emulators.tableName };
    const parked = new ParkedJobStore(table);
    const requeue = new SqsSender(emulators.clients.sqs, emulators.queues.evidence);
    const now = () => simulator.control.now().getTime();
    const deps = {
      client: new DeviceCloudClient({
        baseUrl: simulator.url,
        credentials: { username: "demo", password: "demo" },
      }),
      store: new S3EvidenceStore(emulators.clients.s3, {
        evidence: emulators.bucket,
        staging: emulators.stagingBucket,
      }),
      alerts: new AlertStore(table),
      publisher: new SnsAlertPublisher(emulators.clients.sns, emulators.topicArn),
      requeue,
      parked,
      retention: { retentionDays: async () => PARKED_SCENARIO.retentionDays },
      claims: new NoticeClaims(table),
      observer: ignoreObservations,
      now,
      wallClock: Date.now,
    };
    const eventMs = clockStart.getTime() - 60_000 * 5;
    const serialno = simulator.control.injectEvent({
      appdevid: 16,
      deviceid,
      eventtime: new Date(eventMs),
    }).serialno;
    await deps.alerts.record(
      {
        account: "bench",
        serialno,
        ruleId: "shock",
        deviceid,
        appdevid: 16,
        eventtime: new Date(eventMs).toISOString(),
        severity: "critical",
        status: "published",
      },
      eventMs,
    );
    simulator.control.setRecording(deviceid, new Date(eventMs - HOUR_MS), new Date(eventMs + 30 * DAY_MS), 0);
    simulator.control.setOnline(deviceid, false, { hold: true, logEvent: false });
    const job = evidenceJobSchema.parse({
      version: 1,
      alertId: `bench:${serialno}:shock`,
      account: "bench",
      ruleId: "shock",
      deviceid,
      serialno: serialno.toString(),
      eventtime: new Date(eventMs).toISOString(),
      channels: [1, 2],
      secondsBefore: 30,
      secondsAfter: 30,
      severity: "critical",
      event: { serialno: serialno.toString(), deviceid, appdevid: 16 },
    });
    const settings = { utcOffsetMinutes: 0, maxWaitDays: 14, retryDelaySeconds: 60 } as EvidenceSettings;
    const endpoints = () => {
      const counts: Record<string, number> = {};
      for (const entry of simulator.control.requests)
        counts[entry.endpoint ?? "none"] = (counts[entry.endpoint ?? "none"] ?? 0) + 1;
      return counts;
    };

    // One job: checked, parked; the sweeps of its days offline (shared by every job of the account:
    // counted apart); then its wake at the vehicle's Online event.
    let [calls, aws] = [endpoints(), await emulators.requestCounts()];
    await collectEvidence(job, settings, deps);
    const parkCalls = since(calls, endpoints());
    const parkAws = since(aws, await emulators.requestCounts());
    [calls, aws] = [endpoints(), await emulators.requestCounts()];
    const sweeps = (PARKED_SCENARIO.offlineDays * 24 * 60) / PARKED_SWEEP_EVERY_MINUTES;
    for (let sweep = 0; sweep < sweeps; sweep++) {
      simulator.control.advance(PARKED_SWEEP_EVERY_MINUTES * 60_000);
      await sweepParkedEvidence("bench", { ...deps, client: deps.client });
    }
    const sweepCalls = since(calls, endpoints());
    const sweepAws = since(aws, await emulators.requestCounts());
    [calls, aws] = [endpoints(), await emulators.requestCounts()];
    await wakeDevices("bench", [deviceid], { parked, evidenceQueue: requeue, observer: ignoreObservations });
    const wakeAws = since(aws, await emulators.requestCounts());
    const perAlert = {
      deviceCloud: parkCalls,
      aws: Object.fromEntries(
        [...new Set([...Object.keys(parkAws), ...Object.keys(wakeAws)])].map((operation) => [
          operation,
          (parkAws[operation] ?? 0) + (wakeAws[operation] ?? 0),
        ]),
      ),
    };
    const perSweep = (counts: Record<string, number>) =>
      Object.fromEntries(Object.entries(counts).map(([operation, count]) => [operation, count / sweeps]));
    const sweep = { deviceCloud: perSweep(sweepCalls), aws: perSweep(sweepAws) };

    const { alertsPerMonth, devices, onlineEventsPerDevicePerDay } = PARKED_SCENARIO;
    const sum = (counts: Record<string, number>) =>
      Object.values(counts).reduce((total, count) => total + count, 0);
    const dynamo = (counts: Record<string, number>, kind: "write" | "read") =>
      Object.entries(counts)
        .filter(([operation]) => operation.startsWith("DynamoDB"))
        .filter(([operation]) => (kind === "write") === /Put|Update|Delete/.test(operation))
        .reduce((total, [, count]) => total + count, 0);
    const awsUsd = (counts: Record<string, number>) =>
      dynamo(counts, "write") * AWS_PRICES.dynamodb.writeRequestUnit.usd +
      dynamo(counts, "read") * AWS_PRICES.dynamodb.readRequestUnit.usd +
      (counts["SQS SendMessage"] ?? 0) * 3 * AWS_PRICES.sqs.request.usd +
      (counts["SQS SendMessageBatch"] ?? 0) * 3 * AWS_PRICES.sqs.request.usd +
      (counts["SNS Publish"] ?? 0) * AWS_PRICES.sns.publishRequest.usd;
    // Per job: the park's invocation and the woken job's (its own fetch is the same as today's).
    const perJobUsd = lambdaUsd(1, sum(perAlert.deviceCloud), sum(perAlert.aws)) + awsUsd(perAlert.aws);
    // Every hour, whatever is parked: the schedule's message (send, receive, delete), one invocation.
    const sweepUsd =
      SWEEPS_PER_MONTH *
      (lambdaUsd(1, sum(sweep.deviceCloud), sum(sweep.aws)) +
        awsUsd(sweep.aws) +
        3 * AWS_PRICES.sqs.request.usd);
    // The poller's look for parked jobs at every Online event of the fleet: one Query each.
    const onlineQueries = devices * onlineEventsPerDevicePerDay * 30;
    const onlineUsd = onlineQueries * AWS_PRICES.dynamodb.readRequestUnit.usd;
    const sweepCallsPerMonth = SWEEPS_PER_MONTH * sum(sweep.deviceCloud);
    return {
      scenario: PARKED_SCENARIO,
      today: todaysRetries(),
      parked: {
        perAlert,
        sweep,
        deviceCloudCallsPerAlert: sum(perAlert.deviceCloud),
        deviceCloudCallsPerMonth: sum(perAlert.deviceCloud) * alertsPerMonth + sweepCallsPerMonth,
        usdPerMonth: perJobUsd * alertsPerMonth + sweepUsd + onlineUsd,
        footageLostPerMonth: PARKED_SCENARIO.offlineDays > PARKED_SCENARIO.retentionDays ? alertsPerMonth : 0,
      },
    };
  } finally {
    await simulator.close();
    await emulators.close();
  }
}
