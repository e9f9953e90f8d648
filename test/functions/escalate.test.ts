import type { Observation, ObservationOf } from "@fleet-alerts/core";
import { AcknowledgementStore, acknowledge } from "@fleet-alerts/core/escalation";
import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEscalateHandler } from "../../packages/functions/src/escalate.js";
import { createPollHandler } from "../../packages/functions/src/poll.js";
import { buildRuntime } from "../../packages/functions/src/runtime.js";
import { CONTEXT } from "../../packages/local/src/delivery.js";
import { type Pipeline, startPipeline } from "../core/poller/pipeline.js";
import { drainQueue } from "../support/drain-queue.js";

// The handlers live by a clock running SCALE times faster than real time, and SQS delays shrink
// with it, as in the local mode: the 1-minute levels come due after 2 s and 4 s.
const SCALE = 30;
const RULES = [
  { id: "crash", events: [16], severity: "critical" as const, escalate: { after: "1m", levels: 2 } },
];

let pipeline: Pipeline;
let level1: Awaited<ReturnType<Pipeline["emulators"]["subscribeQueue"]>>;
let level2: typeof level1;
const observations: Observation[] = [];
let now: () => number;
let poll: ReturnType<typeof createPollHandler>;
let escalate: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

beforeAll(async () => {
  pipeline = await startPipeline({ rules: RULES });
  const { emulators, simulator, env } = pipeline;
  // Each level's people as deployed: a subscription filtered on the `level` attribute.
  level1 = await emulators.subscribeQueue({ level: ["1"] }, emulators.escalationTopicArn);
  level2 = await emulators.subscribeQueue({ level: ["2"] }, emulators.escalationTopicArn);
  const startMs = simulator.control.now().getTime();
  const realStartMs = Date.now();
  now = () => startMs + (Date.now() - realStartMs) * SCALE;
  const overrides = {
    observer: { observe: (o: Observation) => void observations.push(o) },
    now,
    timeScale: SCALE,
  };
  poll = createPollHandler(env, overrides);
  escalate = createEscalateHandler(env, overrides);
  await poll({}, CONTEXT); // starts at the newest event: no history is alerted
}, 30_000);
afterAll(() => pipeline?.close());

const of = <T extends Observation["type"]>(type: T, alertId: string) =>
  observations.filter(
    (observation): observation is ObservationOf<T> =>
      observation.type === type && "alertId" in observation && observation.alertId === alertId,
  );

/** A critical crash now, published by the poll handler; its alert id. */
async function publishedCrash(): Promise<string> {
  const event = pipeline.simulator.control.injectEvent({ appdevid: 16, eventtime: new Date(now()) });
  const [summary] = await poll({}, CONTEXT);
  expect(summary).toMatchObject({ alertsPublished: 1 });
  await pipeline.emulators.readInbox({ atLeast: 1 }); // the alert itself
  return `north:${event.serialno}:crash`;
}

/** Delivers the escalation queue's jobs to the escalate handler (each `times` in one batch) until it is empty. */
const deliverEscalations = (times: number) =>
  drainQueue(pipeline.emulators.clients.sqs, pipeline.emulators.queues.escalation, escalate, times);

/** What each level's subscribers got: level attribute and subject, per message. */
async function received(atLeast: number) {
  const [first, second] = await Promise.all([
    level1.read({ atLeast, waitMs: 3000 }),
    level2.read({ atLeast, waitMs: 3000 }),
  ]);
  const shown = (message: (typeof first)[number]) => ({
    level: message.attributes.level?.value,
    alertId: message.attributes.alert_id?.value,
    subject: message.subject,
  });
  return { level1: first.map(shown), level2: second.map(shown) };
}

describe("the escalate handler on the emulators", () => {
  it("sends an unacknowledged critical alert once to each level, saying how long it waited", async () => {
    const alertId = await publishedCrash();
    await deliverEscalations(1);
    expect(await received(1)).toEqual({
      level1: [
        {
          level: "1",
          alertId,
          subject: expect.stringMatching(
            /^Not acknowledged after 1 min \(escalation level 1 of 2\): \[CRITICAL\]/,
          ),
        },
      ],
      level2: [
        {
          level: "2",
          alertId,
          subject: expect.stringMatching(/^Not acknowledged after 2 min \(escalation level 2 of 2\)/),
        },
      ],
    });
    expect(of("alert-escalated", alertId).map(({ level }) => level)).toEqual([1, 2]);
  }, 30_000);

  // The two copies of a job run side by side: the one that loses the claim finds it in flight and
  // looks again 10 real seconds later (claims are on the wall clock, whatever SCALE), when it finds
  // the level sent.
  it("still sends once per level when every job is delivered twice", async () => {
    const alertId = await publishedCrash();
    await deliverEscalations(2);
    const { level1: first, level2: second } = await received(1);
    expect(first.map(({ level }) => level)).toEqual(["1"]);
    expect(second.map(({ level }) => level)).toEqual(["2"]);
    expect(of("alert-escalated", alertId).map(({ level }) => level)).toEqual([1, 2]);
  }, 30_000);

  it("is not scheduled by the poll handler without ESCALATION_QUEUE_URL", async () => {
    const env = Object.fromEntries(
      Object.entries(pipeline.env).filter(([name]) => name !== "ESCALATION_QUEUE_URL"),
    );
    expect((await buildRuntime(env)).pollers[0]?.deps.escalationQueue).toBeUndefined();
    expect((await buildRuntime(pipeline.env)).pollers[0]?.deps.escalationQueue).toMatchObject({
      queueUrl: pipeline.emulators.queues.escalation,
    });
  });

  it("sends nothing for an alert acknowledged before its first level", async () => {
    const alertId = await publishedCrash();
    const [account, serialno, ruleId] = alertId.split(":") as [string, string, string];
    const deviceid = pipeline.simulator.control.devices()[0]?.deviceid as string;
    const table = {
      documents: pipeline.emulators.clients.documents,
      tableName: pipeline.emulators.tableName,
    };
    const outcome = await acknowledge(
      { account, serialno: BigInt(serialno), ruleId, alertId, deviceid },
      { by: "Dana", atMs: now() },
      {
        acknowledgements: new AcknowledgementStore(table),
        observer: { observe: (o) => void observations.push(o) },
      },
    );
    expect(outcome).toEqual({ recorded: true });
    await deliverEscalations(1);
    expect(await received(0)).toEqual({ level1: [], level2: [] });
    expect(of("alert-escalated", alertId)).toEqual([]);
    expect(of("escalation-cancelled", alertId).map(({ level, reason }) => [level, reason])).toEqual([
      [1, "acknowledged"],
    ]);
  }, 30_000);
});
