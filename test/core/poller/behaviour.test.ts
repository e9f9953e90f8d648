import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { AlertStore } from "@fleet-alerts/core/alerts";
import { confirmOffline, type OfflineCheckJob, offlineCheckJobSchema } from "@fleet-alerts/core/offline";
import type { QueueMessage } from "@fleet-alerts/core/queue";
import type { Context } from "aws-lambda";
import { afterEach, describe, expect, it } from "vitest";
import { createPollHandler } from "../../../packages/functions/src/poll.js";
import { sqsEvent } from "../../../packages/local/src/sqs-event.js";
import {
  accountRuntime,
  alertsOf,
  drainInbox,
  type Pipeline,
  pollWithClock,
  startPipeline,
  virtualNow,
} from "./pipeline.js";

let pipeline: Pipeline | undefined;
afterEach(async () => {
  await pipeline?.close();
  pipeline = undefined;
});

async function started(rules: Parameters<typeof startPipeline>[0]["rules"], env?: Record<string, string>) {
  pipeline = await startPipeline({ rules, ...(env && { env }) });
  await pollWithClock(pipeline); // the first poll sets the cursor at the newest event
  return pipeline;
}

const minutes = (count: number) => count * 60_000;

describe("cooldown", () => {
  it("suppresses repeats per device inside the cooldown and says how many on the next alert", async () => {
    const { simulator, emulators } = await started([
      { id: "speed", events: [13], severity: "warning", cooldownSeconds: 600 },
    ]);
    const [a, b] = simulator.control.devices().map((device) => device.deviceid);
    const at = (device: string | undefined, offsetMinutes: number) =>
      simulator.control.injectEvent({
        appdevid: 13,
        deviceid: device,
        eventtime: new Date(simulator.control.now().getTime() + minutes(offsetMinutes)),
      });
    const first = at(a, 0);
    at(a, 1);
    at(a, 5);
    const other = at(b, 2);
    const afterCooldown = at(a, 11);
    const summary = await pollWithClock(pipeline as Pipeline);
    expect(summary).toMatchObject({ alertsPublished: 3, suppressed: 2 });
    const alerts = alertsOf(await drainInbox(emulators));
    expect(alerts.map((alert) => alert.key).sort()).toEqual(
      [first, other, afterCooldown].map((event) => `${event.serialno}/speed`).sort(),
    );
    const last = alerts.find((alert) => alert.key === `${afterCooldown.serialno}/speed`);
    expect(last?.message.bodies?.email).toMatch(/2 repeats/);
    expect(last?.message.bodies?.sms).toMatch(/2 repeats suppressed/);
  });
});

describe("staleness", () => {
  it("records an event older than the limit without alerting", async () => {
    const { simulator, emulators } = await started([
      { id: "shock", events: [16], severity: "critical", staleAfterSeconds: 3600 },
    ]);
    const now = simulator.control.now().getTime();
    const old = simulator.control.injectEvent({ appdevid: 16, eventtime: new Date(now - minutes(61)) });
    const fresh = simulator.control.injectEvent({ appdevid: 16, eventtime: new Date(now - minutes(59)) });
    expect(await pollWithClock(pipeline as Pipeline)).toMatchObject({ stale: 1, alertsPublished: 1 });
    expect(alertsOf(await drainInbox(emulators)).map((alert) => alert.key)).toEqual([
      `${fresh.serialno}/shock`,
    ]);
    const record = await new AlertStore({
      documents: emulators.clients.documents,
      tableName: emulators.tableName,
    }).get("north", old.serialno, "shock");
    expect(record).toMatchObject({ status: "stale", deviceid: old.deviceid });
  });
});

describe("Offline confirmation", () => {
  const OFFLINE_RULES = [
    { id: "offline", events: ["Offline"], severity: "warning" as const, offlineForMinutes: 10 },
  ];

  /** What the poller sends to the confirmation queue, kept by wrapping the real sender. */
  async function recordingConfirmQueue() {
    const { deps } = await accountRuntime(pipeline as Pipeline);
    const sent: OfflineCheckJob[] = [];
    return {
      sent,
      confirmQueue: Object.assign(Object.create(deps.confirmQueue), {
        send: async (messages: readonly QueueMessage[]) => {
          sent.push(...messages.map((message) => offlineCheckJobSchema.parse(JSON.parse(message.body))));
          return deps.confirmQueue.send(messages);
        },
      }),
    };
  }

  /** Receives the due checks from the queue and hands them to the real confirm handler as Lambda would. */
  async function runConfirmHandler() {
    const { emulators, confirmHandler } = pipeline as Pipeline;
    const received = await emulators.clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: emulators.queues.confirm,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
      }),
    );
    const event = sqsEvent(received.Messages ?? []);
    const response = await confirmHandler(event, {} as Context);
    return { count: event.Records.length, failures: response.batchItemFailures };
  }

  it("alerts when the device is still offline when the check comes due", async () => {
    const { simulator, emulators } = await started(OFFLINE_RULES);
    const deviceid = simulator.control.devices()[0]?.deviceid as string;
    const offline = simulator.control.setOnline(deviceid, false);
    simulator.control.advance(minutes(11));
    expect(await pollWithClock(pipeline as Pipeline)).toMatchObject({ offlineChecks: 1, alertsPublished: 0 });
    expect(await runConfirmHandler()).toEqual({ count: 1, failures: [] });
    const alerts = alertsOf(await drainInbox(emulators));
    expect(alerts.map((alert) => alert.key)).toEqual([`${offline?.serialno}/offline`]);
    expect(alerts[0]?.message.bodies?.email).toMatch(/still offline 10 minutes after/);
  });

  it("does not alert when the device is back online at the check, even without an Online event", async () => {
    const { simulator, emulators } = await started(OFFLINE_RULES);
    const deviceid = simulator.control.devices()[1]?.deviceid as string;
    simulator.control.setOnline(deviceid, false);
    simulator.control.advance(minutes(11));
    simulator.control.setOnline(deviceid, true, { logEvent: false });
    expect(await pollWithClock(pipeline as Pipeline)).toMatchObject({ offlineChecks: 1 });
    expect(await runConfirmHandler()).toEqual({ count: 1, failures: [] });
    expect(await drainInbox(emulators)).toEqual([]);
  });

  it("is cancelled by an Online event that arrives before the check, and a late check does nothing", async () => {
    const { simulator, emulators } = await started(OFFLINE_RULES);
    const { confirmQueue, sent } = await recordingConfirmQueue();
    const deviceid = simulator.control.devices()[2]?.deviceid as string;
    simulator.control.setOnline(deviceid, false);
    expect(await pollWithClock(pipeline as Pipeline, "north", { confirmQueue })).toMatchObject({
      offlineChecks: 1,
    });
    simulator.control.advance(minutes(3));
    simulator.control.setOnline(deviceid, true);
    simulator.control.advance(minutes(10));
    expect(await pollWithClock(pipeline as Pipeline, "north", { confirmQueue })).toMatchObject({
      offlineCancelled: 1,
    });
    // The delayed message arrives anyway (SQS cannot take it back): it finds the check cancelled.
    const { settings, deps } = await accountRuntime(pipeline as Pipeline);
    const job = sent[0] as OfflineCheckJob;
    expect(await confirmOffline(job, settings, { ...deps, now: virtualNow(pipeline as Pipeline) })).toBe(
      "not-pending",
    );
    expect(await drainInbox(emulators)).toEqual([]);
  });

  it("waits in steps for a check that is not due yet, and a duplicate delivery alerts once", async () => {
    const { simulator, emulators } = await started(OFFLINE_RULES);
    const { confirmQueue, sent } = await recordingConfirmQueue();
    const deviceid = simulator.control.devices()[3]?.deviceid as string;
    simulator.control.setOnline(deviceid, false);
    await pollWithClock(pipeline as Pipeline, "north", { confirmQueue });
    const { settings, deps } = await accountRuntime(pipeline as Pipeline);
    const job = sent[0] as OfflineCheckJob;
    const clocked = { ...deps, confirmQueue, now: virtualNow(pipeline as Pipeline) };
    expect(await confirmOffline(job, settings, clocked)).toBe("requeued");
    expect(sent).toHaveLength(2); // sent again, delayed, to come back when due
    simulator.control.advance(minutes(10));
    expect(await confirmOffline(job, settings, clocked)).toBe("alerted");
    expect(await confirmOffline(job, settings, clocked)).toBe("not-pending");
    expect(alertsOf(await drainInbox(emulators))).toHaveLength(1);
  });
});

describe("the poll handler's run", () => {
  it("checkpoints and stops at its deadline; the next run goes on from there", async () => {
    const { simulator, emulators } = await started([
      { id: "all", events: [13, 16, 14, 8], severity: "info" },
    ]);
    const cursor = BigInt((await pollWithClock(pipeline as Pipeline)).cursor ?? "0");
    simulator.control.advance(6 * 3_600_000);
    let pastDeadline = false;
    const deadlineMs = Date.now() + 60_000;
    const first = await pollWithClock(pipeline as Pipeline, "north", {
      deadlineMs,
      endsAtMs: deadlineMs + 10_000,
      chunkEvents: 100,
      // The deadline passes as the first chunk moves the cursor, while the second chunk's records
      // are written: the run must send that one too (its invocation has not ended) and stop right after it.
      wallClock: () => (pastDeadline ? deadlineMs : Date.now()),
      checkpoint: (step) => {
        if (step === "cursor-advanced") pastDeadline = true;
      },
    });
    const unread = simulator.control.events().filter((event) => event.serialno > cursor);
    expect(unread.length).toBeGreaterThan(250);
    expect(first.outcome).toBe("deadline");
    expect(first.cursor).toBe(unread[199]?.serialno.toString()); // two chunks of 100 events
    expect(first.lagSeconds).toBeGreaterThan(0);
    const rest = await pollWithClock(pipeline as Pipeline);
    expect(rest.outcome).toBe("caught-up");
    const keys = alertsOf(await drainInbox(emulators)).map((alert) => alert.key);
    const expected = unread
      .filter((event) => [13, 16, 14, 8].includes(event.appdevid))
      .map((event) => `${event.serialno}/all`);
    expect(keys.sort()).toEqual(expected.sort());
  });
});

describe("configuration", () => {
  it.each([
    ["a missing variable", { TABLE_NAME: undefined }, /TABLE_NAME: missing/],
    [
      "accounts that are not JSON",
      { DEVICE_CLOUD_ACCOUNTS: "[{" },
      /DEVICE_CLOUD_ACCOUNTS: is not valid JSON/,
    ],
    [
      "an unknown time zone",
      { FLEET_TIME_ZONE: "Mars/Olympus" },
      /FLEET_TIME_ZONE: must be an IANA time zone/,
    ],
    ["a poll interval of a minute", { POLL_EVERY_SECONDS: "60" }, /POLL_EVERY_SECONDS/],
    [
      "a poll interval without its timer queue",
      { POLL_EVERY_SECONDS: "5", POLL_TIMER_QUEUE_URL: undefined },
      /POLL_TIMER_QUEUE_URL: missing: POLL_EVERY_SECONDS needs the poll-timer queue/,
    ],
    [
      "a missing password",
      { DEVICE_CLOUD_PASSWORD: undefined },
      /DEVICE_CLOUD_PASSWORD: missing \(the password of account north\)/,
    ],
  ])("fails every invocation with a clear error for %s", async (_label, override, message) => {
    pipeline = await startPipeline({ rules: [{ id: "speed", events: [13], severity: "warning" }] });
    const env = { ...pipeline.env, ...override } as Record<string, string | undefined>;
    const handler = createPollHandler(env);
    const invoke = () => handler({}, { getRemainingTimeInMillis: () => 10_000 });
    await expect(invoke()).rejects.toThrow(message);
    await expect(invoke()).rejects.toThrow(message);
  });

  it("lists every problem of an invalid rules file, and never prints the password", async () => {
    pipeline = await startPipeline({
      rules: [{ id: "speed", events: ["Overspeeed"], severity: "loud" } as never],
      env: { DEVICE_CLOUD_PASSWORD: "s3cret-do-not-print" },
    });
    const error = (await pipeline.poll().catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(/rules\.0\.events\.0: unknown event name "Overspeeed"/);
    expect(error.message).toMatch(/rules\.0\.severity/);
    expect(error.message).not.toContain("s3cret-do-not-print");
  });
});
