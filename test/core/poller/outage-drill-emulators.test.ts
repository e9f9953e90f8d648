import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { AlertStore } from "@fleet-alerts/core/alerts";
import { evidenceJobSchema, evidencePrefix } from "@fleet-alerts/core/evidence";
import { recipientId } from "@fleet-alerts/core/routing";
import type { Context } from "aws-lambda";
import { afterEach, describe, expect, it } from "vitest";
import { createEvidenceHandler } from "../../../packages/functions/src/evidence.js";
import { receive } from "../../../packages/local/src/delivery.js";
import { sqsEvent } from "../../../packages/local/src/sqs-event.js";
import { alertsOf, drainInbox, type Pipeline, pollWithClock, startPipeline } from "./pipeline.js";

const HOUR_MS = 3_600_000;
const RULES = [
  {
    id: "gsensor",
    events: [16],
    severity: "critical" as const,
    staleAfterSeconds: 6 * 3600,
    evidence: { channels: [1], secondsBefore: 10, secondsAfter: 10 },
  },
  { id: "overspeed", events: [13], severity: "warning" as const, staleAfterSeconds: 6 * 3600 },
];
const GROUPS = { groups: [{ name: "safety", email: ["safety@example.com"], select: {} }] };
const SAFETY = recipientId("email", "safety@example.com");

let pipeline: Pipeline | undefined;
afterEach(async () => {
  await pipeline?.close();
  pipeline = undefined;
});

describe("the outage drill over the emulators", () => {
  it("after seven hours without the device cloud: the first hour's G-sensor alert held back as stale, its claim pack stored, one summary to its group", async () => {
    const current = await startPipeline({
      rules: RULES,
      groups: GROUPS,
      simulator: { seed: 23, devices: 6, historyHours: 1 },
      env: { PUBLIC_BASE_URL: "https://alerts.example.com", SHARE_LINK_SECRET: "s".repeat(32) },
      pollSizes: { pageEvents: 50, chunkEvents: 20, scanSerials: 120 },
    });
    pipeline = current;
    const { control } = current.simulator;
    const poll = () => pollWithClock(current, "north");
    expect(await poll()).toMatchObject({ outcome: "started" });

    // The device cloud refuses every call for seven hours; the schedule's runs fail all along.
    control.faults.add({ endpoint: "*", kind: "status503", probability: 1, retryAfterSeconds: 0 });
    control.advance(HOUR_MS / 2);
    const device = control.devices()[0]?.deviceid as string;
    const collision = control.injectEvent({ appdevid: 16, deviceid: device, eventtime: control.now() });
    control.setRecording(
      device,
      new Date(control.now().getTime() - 60_000),
      new Date(control.now().getTime() + 60_000),
      1,
    );
    for (let hour = 0; hour < 7; hour++) {
      await expect(poll()).rejects.toThrow();
      control.advance(HOUR_MS);
    }
    control.faults.clear();

    // Back: ordinary runs catch up by themselves.
    const outcomes: string[] = [];
    for (let run = 0; run < 5 && outcomes.at(-1) !== "caught-up"; run++)
      outcomes.push((await poll()).outcome);
    expect(outcomes.at(-1)).toBe("caught-up");
    const inbox = await drainInbox(current.emulators);

    // The collision of the outage's first hour: recorded stale, never sent as an alert...
    const alertId = `north:${collision.serialno}:gsensor`;
    const record = await new AlertStore({
      documents: current.emulators.clients.documents,
      tableName: current.emulators.tableName,
    }).get("north", collision.serialno, "gsensor");
    expect(record).toMatchObject({ status: "stale" });
    expect(alertsOf(inbox).map((alert) => alert.key)).not.toContain(`${collision.serialno}/gsensor`);

    // ...its footage still collected: the evidence function stores its claim pack.
    const jobs = (await receive(current.emulators.clients.sqs, current.emulators.queues.evidence)).map(
      (message) => evidenceJobSchema.parse(JSON.parse(message.Body as string)),
    );
    const job = jobs.find((candidate) => candidate.alertId === alertId);
    expect(job).toBeDefined();
    const response = await createEvidenceHandler(current.env)(
      sqsEvent([{ MessageId: "m0", ReceiptHandle: "r0", Body: JSON.stringify(job) }]),
      {} as Context,
    );
    expect(response.batchItemFailures).toEqual([]);
    const prefix = evidencePrefix(job as NonNullable<typeof job>);
    const { Contents = [] } = await current.emulators.clients.s3.send(
      new ListObjectsV2Command({ Bucket: current.emulators.bucket, Prefix: prefix }),
    );
    expect(Contents.map((object) => (object.Key as string).slice(prefix.length))).toEqual(
      expect.arrayContaining(["data/ch1.mp4", "report.html", "bagit.txt", "tagmanifest-sha256.txt"]),
    );

    // ...and its group hears of what was held back once, the collision among the alerts listed.
    const summaries = inbox.filter((message) => message.attributes.kind?.value === "stale-summary");
    expect(summaries.map((message) => message.attributes.to?.value)).toEqual([SAFETY]);
    const body = JSON.parse(summaries[0]?.bodies?.default ?? summaries[0]?.raw ?? "{}") as {
      total: number;
      byRule: Record<string, number>;
      listed: string[];
    };
    expect(body.byRule.gsensor).toBeGreaterThanOrEqual(1);
    expect(body.listed).toContain(alertId);
    expect(await drainInbox(current.emulators)).toEqual([]);
    expect((await poll()).outcome).toBe("caught-up");
    expect(
      (await drainInbox(current.emulators)).filter(
        (message) => message.attributes.kind?.value === "stale-summary",
      ),
    ).toEqual([]);
  }, 120_000);
});
