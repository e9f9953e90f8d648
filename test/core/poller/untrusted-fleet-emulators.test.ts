import { createHash } from "node:crypto";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { GetQueueAttributesCommand, type Message, SetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { CursorStore } from "@fleet-alerts/core/cursor";
import { type EvidenceJob, evidenceJobSchema, evidencePrefix } from "@fleet-alerts/core/evidence";
import type { DeviceIdentity } from "@fleet-alerts/simulator";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvidenceHandler } from "../../../packages/functions/src/evidence.js";
import { receive } from "../../../packages/local/src/delivery.js";
import { sqsEvent } from "../../../packages/local/src/sqs-event.js";
import { alertsOf, drainInbox, type Pipeline, startPipeline } from "./pipeline.js";

// The same hostile fleet as untrusted-fleet.test.ts, here through the real handlers, the simulator
// and the emulators (fauxqs refuses what SQS refuses: packages/local/src/fauxqs-parity.ts).

const IDENTITIES: DeviceIdentity[] = [
  { vehicleid: "TRK\uFFFE1", drivername: "Ada\uFFFFLovelace" },
  { vehicleid: "🚚 Truck", drivername: "👩‍✈️ Grace 🇩🇪" },
  { deviceid: "..", vehicleid: "<!channel>\r\n[Open](https://evil.example)", drivername: "   " },
  { deviceid: "../x", vehicleid: "\u202Eexe.pdf", drivername: "\u001b[31mred\u0007\u0000" },
];
const RULES = [
  {
    id: "crash",
    events: ["GSensor"],
    severity: "critical" as const,
    evidence: { channels: [1], secondsBefore: 10, secondsAfter: 10 },
    escalate: { after: "30s", levels: 1 },
  },
];
const GROUPS = {
  groups: [
    {
      name: "everyone",
      email: ["fleet@example.com"],
      sms: [],
      targets: ["hook"],
      select: { minSeverity: "info" },
    },
  ],
  targets: { hook: { kind: "webhook", includeDriverName: true } },
};
/** A queue's largest message here: an evidence job carrying an event of 100 KB is refused. */
const EVIDENCE_QUEUE_MAX_BYTES = 65_536;
const HOSTILE_MEMO = "Zoë\uFFFF<script>alert(1)</script>\u202E🚚\r\n";

let pipeline: Pipeline;
let ops: Awaited<ReturnType<Pipeline["emulators"]["subscribeQueue"]>>;

beforeAll(async () => {
  pipeline = await startPipeline({
    simulator: { seed: 5, devices: 6, historyHours: 1, identities: IDENTITIES },
    rules: RULES,
    groups: GROUPS,
  });
  const [first] = await pipeline.poll();
  expect(first?.outcome).toBe("started");
  const { sqs } = pipeline.emulators.clients;
  await sqs.send(
    new SetQueueAttributesCommand({
      QueueUrl: pipeline.emulators.queues.evidence,
      Attributes: { MaximumMessageSize: String(EVIDENCE_QUEUE_MAX_BYTES) },
    }),
  );
  ops = await pipeline.emulators.subscribeQueue(undefined, pipeline.emulators.opsTopicArn);
}, 60_000);
afterAll(() => pipeline.close());

/** Every message a queue holds now, received and left in place (visible again later). */
async function everyJob(url: string): Promise<Message[]> {
  const all: Message[] = [];
  for (let batch = await receive(pipeline.emulators.clients.sqs, url); batch.length > 0; ) {
    all.push(...batch);
    batch = await receive(pipeline.emulators.clients.sqs, url);
  }
  return all;
}

describe("a hostile fleet through the handlers, the simulator and the emulators", () => {
  it("sends every alert once, queues its jobs, sets aside the one SQS refuses for good, tells ops once, and moves the cursor", async () => {
    const { control } = pipeline.simulator;
    const devices = control.devices().map((device) => device.deviceid);
    expect(devices.slice(2, 4)).toEqual(["..", "../x"]);
    const crashes = devices.flatMap((deviceid) => [
      control.injectEvent({ appdevid: 16, deviceid, memo: HOSTILE_MEMO }),
      control.injectEvent({ appdevid: 16, deviceid }),
    ]);
    const tooLarge = control.injectEvent({ appdevid: 16, deviceid: devices[5], memo: "m".repeat(100_000) });
    const expected = [...crashes, tooLarge].map((event) => `${event.serialno}/crash`).sort();
    pipeline.observations.length = 0;

    const [summary] = await pipeline.poll();
    expect(summary).toMatchObject({
      outcome: "caught-up",
      alertsPublished: 13,
      alertsFailed: 0,
      rejected: 0,
    });
    const { documents } = pipeline.emulators.clients;
    const cursors = new CursorStore({ documents, tableName: pipeline.emulators.tableName });
    expect(await cursors.read("north")).toBe(tooLarge.serialno);

    // Every alert once, its body carrying the names exactly as the service sent them.
    const published = alertsOf(await drainInbox(pipeline.emulators));
    expect(published.map((alert) => alert.key).sort()).toEqual(expected);
    const listed = new Map(control.devices().map((device) => [device.deviceid, device]));
    for (const { message } of published) {
      const body = JSON.parse(message.bodies?.default ?? "{}") as Record<string, string>;
      const device = listed.get(body.deviceid as string);
      expect(body).toMatchObject({ vehicleid: device?.vehicleid, drivername: device?.drivername });
      expect(message.bodies?.sms).toMatch(/^[\x20-\x7e]{1,160}$/);
      expect(message.subject).toMatch(/^[\x20-\x7e]{1,99}$/);
    }

    // Evidence jobs for all but the one too large for its queue; webhook and escalation jobs for all.
    const evidence = (await everyJob(pipeline.emulators.queues.evidence)).map((job) =>
      evidenceJobSchema.parse(JSON.parse(job.Body as string)),
    );
    const tooLargeId = `north:${tooLarge.serialno}:crash`;
    expect(evidence.map((job) => `${job.serialno}/crash`).sort()).toEqual(
      expected.filter((key) => key !== `${tooLarge.serialno}/crash`),
    );
    expect(evidence.map((job) => job.alert?.drivername)).toContain("Ada\uFFFFLovelace");
    expect((await everyJob(pipeline.emulators.queues.webhook)).length).toBe(13);
    const { Attributes } = await pipeline.emulators.clients.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: pipeline.emulators.queues.escalation,
        AttributeNames: ["ApproximateNumberOfMessagesDelayed"],
      }),
    );
    expect(Attributes?.ApproximateNumberOfMessagesDelayed).toBe("13");

    // The refused job is set aside with SQS's reason, counted, and ops are told of it, once.
    const setAside = pipeline.observations.filter((observation) => observation.type === "record-set-aside");
    expect(setAside).toEqual([
      expect.objectContaining({ alertId: tooLargeId, step: "evidence-job", deviceid: devices[5] }),
    ]);
    expect(setAside[0]?.reason).toMatch(/shorter than 65536 bytes/);
    const told = await ops.read({ atLeast: 1, waitMs: 3_000 });
    expect(told).toHaveLength(1);
    expect(told[0]?.subject).toBe("fleet-alerts: 1 record set aside in account north");
    expect(told[0]?.raw).toContain(tooLargeId);

    const [again] = await pipeline.poll();
    expect(again).toMatchObject({ outcome: "caught-up", eventsRead: 0, alertsPublished: 0 });
    expect(await ops.read({ atLeast: 0, waitMs: 300 })).toEqual([]);
    // What the tests below take from here.
    evidenceOfDotDot = evidence.find((job) => job.deviceid === ".." && job.event.memo !== undefined);
  });

  it("stores the evidence of a device named `..` under its own folder, with event.json as the service sent it, and a clip link that opens", async () => {
    const job = evidenceOfDotDot as EvidenceJob;
    expect(job).toBeDefined();
    const eventMs = Date.parse(job.eventtime);
    pipeline.simulator.control.setRecording("..", new Date(eventMs - 60_000), new Date(eventMs + 60_000), 1);
    const response = await createEvidenceHandler(pipeline.env)(
      sqsEvent([{ MessageId: "m0", ReceiptHandle: "r0", Body: JSON.stringify(job) }]),
      {} as Context,
    );
    expect(response.batchItemFailures).toEqual([]);

    const prefix = evidencePrefix(job);
    expect(prefix).toMatch(/^evidence\/~\.\.\/\d{4}\/\d{2}\/\d{2}\/\d+\/$/);
    const { s3 } = pipeline.emulators.clients;
    const { Contents = [] } = await s3.send(
      new ListObjectsV2Command({ Bucket: pipeline.emulators.bucket, Prefix: "evidence/" }),
    );
    const keys = Contents.map((object) => object.Key as string);
    expect(keys.filter((key) => !key.startsWith(prefix))).toEqual([]);
    expect(keys).toContain(`${prefix}data/ch1.mp4`);

    // event.json: the event as the service serves it, every string exactly so.
    const served = await servedEvent(BigInt(job.serialno));
    const eventFile = await s3.send(
      new GetObjectCommand({ Bucket: pipeline.emulators.bucket, Key: `${prefix}data/event.json` }),
    );
    const text = await (eventFile.Body as { transformToString(): Promise<string> }).transformToString();
    expect(JSON.parse(text)).toEqual(served);
    expect(JSON.parse(text).memo).toBe(HOSTILE_MEMO);

    // The clip link a browser follows (a presigned GET, as the incident page makes) reaches the clip:
    // a key with a `..` segment would have been resolved away by the URL.
    const clipKey = `${prefix}data/ch1.mp4`;
    const url = await getSignedUrl(
      s3,
      new GetObjectCommand({ Bucket: pipeline.emulators.bucket, Key: clipKey }),
      {
        expiresIn: 60,
      },
    );
    const clip = await fetch(url);
    expect(clip.status).toBe(200);
    const bytes = Buffer.from(await clip.arrayBuffer());
    expect(bytes.subarray(4, 8).toString()).toBe("ftyp");
    const stored = await s3.send(new GetObjectCommand({ Bucket: pipeline.emulators.bucket, Key: clipKey }));
    const storedBytes = Buffer.from(
      await (stored.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    );
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(
      createHash("sha256").update(storedBytes).digest("hex"),
    );
  }, 60_000);
});

let evidenceOfDotDot: EvidenceJob | undefined;

/** The event as the simulator serves it, parsed from its own answer (no schema of ours in between). */
async function servedEvent(serialno: bigint): Promise<unknown> {
  const password = createHash("sha256").update("demo").digest("hex").toUpperCase();
  const answer = await fetch(`${pipeline.simulator.url}/gkevent/eventquery`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: `{"username":"demo","password":"${password}","serialno":"${serialno}"}`,
  });
  const [event] = (await answer.json()) as unknown[];
  return event;
}
