import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { evidenceJobSchema, evidencePrefix } from "@fleet-alerts/core/evidence";
import type { SimEvent } from "@fleet-alerts/simulator";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvidenceHandler } from "../../../packages/functions/src/evidence.js";
import { createPollHandler } from "../../../packages/functions/src/poll.js";
import { sqsEvent } from "../../../packages/local/src/sqs-event.js";
import { alertsOf, drainInbox, startPipeline } from "./pipeline.js";

// Every rule alerts on each matching event (no cooldown, no staleness, no Offline confirmation), so
// the expected messages follow from the simulator's ground truth alone.
const RULES = [
  { id: "speed", events: ["OverSpeed"], severity: "warning" as const },
  {
    id: "shock",
    events: [16],
    severity: "critical" as const,
    evidence: { channels: [1, 2], secondsBefore: 10, secondsAfter: 20 },
  },
  { id: "disk", events: ["DiskError"], severity: "critical" as const },
  { id: "offline", events: ["Offline"], severity: "info" as const, devices: { prefixes: ["00"] } },
];
const CODES: Record<string, number[]> = { speed: [13], shock: [16], disk: [12], offline: [3] };

let pipeline: Awaited<ReturnType<typeof startPipeline>>;
let firstCursor: bigint;

beforeAll(async () => {
  pipeline = await startPipeline({ rules: RULES });
  const [first] = await pipeline.poll();
  expect(first?.outcome).toBe("started");
  firstCursor = BigInt(first?.cursor ?? "0");
  pipeline.simulator.control.advance(24 * 3_600_000);
});
afterAll(() => pipeline.close());

function expectedAlerts(events: readonly SimEvent[]) {
  return events
    .filter((event) => event.serialno > firstCursor)
    .flatMap((event) =>
      RULES.filter(
        (rule) =>
          CODES[rule.id]?.includes(event.appdevid) &&
          (!rule.devices || rule.devices.prefixes.some((prefix) => event.deviceid.startsWith(prefix))),
      ).map((rule) => ({ key: `${event.serialno}/${rule.id}`, event, rule })),
    );
}

describe("a seeded simulated day through the poll handler", () => {
  it("starts at the newest event, publishing no history", async () => {
    const history = pipeline.simulator.control.events().filter((event) => event.serialno <= firstCursor);
    expect(history.length).toBeGreaterThan(0);
    expect(firstCursor).toBe(history.at(-1)?.serialno);
  });

  it("publishes exactly one message per matching event and nothing else", async () => {
    pipeline.simulator.control.resetRequests();
    pipeline.observations.length = 0;
    const [summary] = await pipeline.poll();
    // Vehicle, driver and position come from one device list per run, not one per event.
    const lists = pipeline.simulator.control.requests.filter((request) => request.endpoint === "alllist");
    expect(lists).toHaveLength(1);
    const expected = expectedAlerts(pipeline.simulator.control.events());
    expect(expected.length).toBeGreaterThan(100);
    expect(summary).toMatchObject({ outcome: "caught-up", alertsPublished: expected.length, rejected: 0 });
    const published = alertsOf(await drainInbox(pipeline.emulators));
    expect(published.map((alert) => alert.key).sort()).toEqual(expected.map((alert) => alert.key).sort());
    // Each is observed once, with the very body its subscribers got, and the run ends in its summary.
    const observed = pipeline.observations.flatMap((observation) =>
      observation.type === "alert-published" ? [observation] : [],
    );
    expect(observed.map((alert) => `${alert.serialno}/${alert.rule}`).sort()).toEqual(
      published.map((alert) => alert.key).sort(),
    );
    for (const alert of published) {
      const body = JSON.parse(alert.message.bodies?.default ?? "") as { alertId: string };
      expect(observed.find((observation) => observation.alertId === body.alertId)?.body).toEqual(body);
    }
    expect(pipeline.observations.at(-1)).toMatchObject({ type: "poll-summary", ...summary });
    // A second run finds nothing new and sends nothing.
    const [again] = await pipeline.poll();
    expect(again).toMatchObject({ outcome: "caught-up", eventsRead: 0, alertsPublished: 0 });
    expect(await drainInbox(pipeline.emulators)).toEqual([]);
  });

  it("gives each message its bodies and filterable attributes", async () => {
    const [device] = pipeline.simulator.control.devices();
    const shock = pipeline.simulator.control.injectEvent({ appdevid: 16, deviceid: device?.deviceid });
    await pipeline.poll();
    const [alert] = alertsOf(await drainInbox(pipeline.emulators));
    expect(alert?.key).toBe(`${shock.serialno}/shock`);
    const { message } = alert as NonNullable<typeof alert>;
    expect(message.attributes).toMatchObject({
      severity: { type: "String", value: "critical" },
      rule: { type: "String", value: "shock" },
      event_code: { type: "Number", value: "16" },
      deviceid: { type: "String", value: device?.deviceid },
      account: { type: "String", value: "north" },
      kind: { type: "String", value: "alert" },
    });
    expect(message.subject).toContain("GSensor");
    const email = message.bodies?.email ?? "";
    for (const fact of [
      device?.vehicleid,
      device?.drivername,
      device?.deviceid,
      shock.serialno.toString(),
      "UTC",
      "openstreetmap.org",
    ]) {
      expect(email).toContain(fact);
    }
    expect(email).toMatch(/channels 1 and 2/);
    const sms = message.bodies?.sms ?? "";
    expect(sms.length).toBeLessThanOrEqual(160);
    expect(sms).not.toContain("\n");
    expect(JSON.parse(message.bodies?.default ?? "{}")).toMatchObject({
      serialno: shock.serialno.toString(),
      ruleId: "shock",
    });
  });

  it("logs an alert at info by its ids and decision, never its text (driver, vehicle, position)", async () => {
    const lines: string[] = [];
    const record = (message: string, attributes: Record<string, unknown>) => {
      lines.push(`${message} ${JSON.stringify(attributes)}`);
    };
    const logger = { info: record, warn: record, error: record };
    const [device] = pipeline.simulator.control.devices();
    const shock = pipeline.simulator.control.injectEvent({ appdevid: 16, deviceid: device?.deviceid });
    await createPollHandler(pipeline.env, { logger })({}, { getRemainingTimeInMillis: () => 60_000 });
    const [alert] = alertsOf(await drainInbox(pipeline.emulators));
    const body = JSON.parse(alert?.message.bodies?.default ?? "{}") as { alertId: string };
    expect(lines.find((line) => line.startsWith("alert-published "))).toContain(body.alertId);
    const text = lines.join("\n");
    for (const personal of [device?.drivername, device?.vehicleid, alert?.message.bodies?.sms]) {
      expect(personal).toBeTruthy();
      expect(text).not.toContain(personal);
    }
    expect(text).not.toMatch(/"lat"|"lng"/);
    expect(shock.serialno).toBeGreaterThan(0n);
  });

  it("queues evidence jobs that the evidence function turns into stored clips", async () => {
    const jobs = await pipeline.emulators.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: pipeline.emulators.queues.evidence, MaxNumberOfMessages: 10 }),
    );
    const messages = jobs.Messages ?? [];
    expect(messages.length).toBeGreaterThan(0);
    const parsed = messages.map((message) => evidenceJobSchema.parse(JSON.parse(message.Body ?? "{}")));
    for (const job of parsed) {
      expect(job).toMatchObject({
        ruleId: "shock",
        channels: [1, 2],
        secondsBefore: 10,
        secondsAfter: 20,
        attempt: 0,
      });
      expect(job.event).toMatchObject({ serialno: job.serialno, deviceid: job.deviceid, appdevid: 16 });
      // The alert as published rides along, for the claim pack's report.
      expect(job.alert).toMatchObject({ alertId: job.alertId, serialno: job.serialno, eventName: "GSensor" });
    }
    // The first job, its minutes recorded, delivered to the real evidence handler as SQS would.
    const [first] = messages;
    const job = parsed[0] as NonNullable<(typeof parsed)[number]>;
    const eventMs = Date.parse(job.eventtime);
    pipeline.simulator.control.setRecording(
      job.deviceid,
      new Date(eventMs - 60_000),
      new Date(eventMs + 60_000),
      1,
    );
    const event = sqsEvent([{ MessageId: "m0", ReceiptHandle: first?.ReceiptHandle, Body: first?.Body }]);
    const response = await createEvidenceHandler(pipeline.env)(event, {} as Context);
    expect(response.batchItemFailures).toEqual([]);
    const listed = await pipeline.emulators.clients.s3.send(
      new ListObjectsV2Command({ Bucket: pipeline.emulators.bucket, Prefix: evidencePrefix(job) }),
    );
    const prefix = evidencePrefix(job);
    expect((listed.Contents ?? []).map((object) => object.Key?.slice(prefix.length)).sort()).toEqual([
      "bag-info.txt",
      "bagit.txt",
      "data/ch1.mp4",
      "data/ch2.mp4",
      "data/event.json",
      "data/track.geojson",
      "manifest-sha256.txt",
      "manifest.json",
      "report.html",
      "tagmanifest-sha256.txt",
    ]);
    // Its report names the vehicle and driver the alert named.
    const report = await pipeline.emulators.clients.s3.send(
      new GetObjectCommand({ Bucket: pipeline.emulators.bucket, Key: `${prefix}report.html` }),
    );
    const html = await (report.Body as { transformToString(): Promise<string> }).transformToString();
    for (const name of [job.alert?.vehicleid, job.alert?.drivername]) {
      expect(name).toBeTruthy();
      expect(html).toContain(escapeHtml(name as string));
    }
  });
});

/** As HTML text shows it. */
function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
