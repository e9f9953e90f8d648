import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { AlertStore } from "@fleet-alerts/core/alerts";
import { CursorStore } from "@fleet-alerts/core/cursor";
import { evidenceJobSchema, manifestSchema } from "@fleet-alerts/core/evidence";
import { AccessAudit, parseAlertId } from "@fleet-alerts/core/share";
import { type Simulator, start } from "@fleet-alerts/simulator";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvidenceHandler } from "../../packages/functions/src/evidence.js";
import { sqsEvent } from "../../packages/local/src/sqs-event.js";
import { type Emulators, startEmulators } from "../support/emulators.js";
import { fleetAlerts } from "./cli/run.js";

const DAY_MS = 86_400_000;
const BASE_URL = "https://alerts.example.test";
const LINK = /^https:\/\/alerts\.example\.test\/i\/([A-Za-z0-9_-]{22})$/m;
const REASON = "Claim ABC-123: third party reports a scrape at the depot gate";

let emulators: Emulators;
let simulator: Simulator;
let dir: string;
let deviceid: string;
/** The simulator's clock start: a week before the moment the request is made. */
let clockStart: Date;

beforeAll(async () => {
  emulators = await startEmulators();
  clockStart = new Date(Math.floor((Date.now() - 7 * DAY_MS) / 60_000) * 60_000);
  simulator = await start({
    seed: 1,
    devices: 4,
    historyHours: 3,
    clock: { start: clockStart },
    bitrateBitsPerSecond: 256_000,
    // Cards that keep two weeks: the moment, a week back, is still on the device's card.
    retentionDays: 14,
  });
  deviceid = simulator.control.devices().find((device) => device.channels >= 2)?.deviceid as string;
  // The moment asked for: an hour before the clock start, while the seeded device drives; recorded.
  simulator.control.setRecording(deviceid, minutesBefore(63), minutesBefore(57), 1);
  simulator.control.advance(7 * DAY_MS);
  // The stage polls the account: it has a cursor.
  const table = { documents: emulators.clients.documents, tableName: emulators.tableName };
  await new CursorStore(table).advance("east", undefined, 1n, Date.now(), 0);
  dir = await mkdtemp(join(tmpdir(), "fleet-alerts-request-"));
});
afterAll(async () => {
  await simulator.close();
  await emulators.close();
  await rm(dir, { recursive: true, force: true });
});

function minutesBefore(minutes: number): Date {
  return new Date(clockStart.getTime() - minutes * 60_000);
}

/** The CLI as an operator at a deployed stage runs it: table, queue and public address from the environment. */
const cli = (args: string[]) =>
  fleetAlerts(args, {
    env: {
      ...emulators.env(),
      PUBLIC_BASE_URL: BASE_URL,
      DEVICE_CLOUD_ACCOUNTS: undefined,
      FLEET_ALERTS_ACCOUNT: undefined,
      SHARE_MAX_DAYS: undefined,
    },
  });

const requestArgs = [
  "evidence",
  "request",
  "--account",
  "east",
  "--device",
  "",
  "--at",
  "",
  "--before",
  "20",
  "--after",
  "40",
  "--channels",
  "2,1",
  "--reason",
  REASON,
  "--by",
  "dana",
];
const request = () =>
  cli(
    requestArgs.map((arg, index) =>
      index === 5 ? deviceid : index === 7 ? minutesBefore(60).toISOString() : arg,
    ),
  );

/** Every message now on the evidence queue, received and left to expire (the test reads, never deletes). */
async function queuedJobs() {
  const { Messages } = await emulators.clients.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: emulators.queues.evidence,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 1,
    }),
  );
  return Messages ?? [];
}

async function keysUnder(prefix: string): Promise<string[]> {
  const listed = await emulators.clients.s3.send(
    new ListObjectsV2Command({ Bucket: emulators.bucket, Prefix: prefix }),
  );
  return (listed.Contents ?? []).map((object) => object.Key as string).sort();
}

describe("fleet-alerts evidence request, a week after the moment", () => {
  let alertId: string;
  let prefix: string;

  beforeAll(async () => {
    const first = await request();
    expect(first.code, first.stderr).toBe(0);
    alertId = /^footage requested: (east:9\d{39}:on-request)$/m.exec(first.stdout)?.[1] as string;
    expect(alertId).toBeDefined();
    expect(first.stdout).toMatch(LINK);

    const messages = await queuedJobs();
    expect(messages).toHaveLength(1);
    const job = evidenceJobSchema.parse(JSON.parse(messages[0]?.Body as string));
    expect(job).toMatchObject({
      alertId,
      deviceid,
      channels: [2, 1],
      secondsBefore: 20,
      secondsAfter: 40,
      severity: "info",
      request: { reason: REASON, requestedBy: "dana" },
    });
    // The evidence function, living by the simulator's clock, handles it as it would an alert's.
    const env = {
      ...emulators.env(),
      DEVICE_CLOUD_ACCOUNTS: JSON.stringify([{ id: "east", baseUrl: simulator.url, username: "demo" }]),
      DEVICE_CLOUD_PASSWORD: "demo",
      EVIDENCE_GIVE_UP_HOURS: "1",
    };
    const handler = createEvidenceHandler(env, { now: () => simulator.control.now().getTime() });
    const response = await handler(sqsEvent(messages), {} as Context);
    expect(response.batchItemFailures).toEqual([]);
    const { account, serialno, ruleId } = parseAlertId(alertId);
    const alerts = new AlertStore({ documents: emulators.clients.documents, tableName: emulators.tableName });
    const record = await alerts.get(account, serialno, ruleId);
    expect(record).toMatchObject({ status: "requested", evidenceStatus: "stored", deviceid });
    prefix = (record?.evidenceKeys?.[0] ?? "").replace(/manifest\.json$/, "");
  }, 120_000);

  it("stores a claim pack that evidence verify accepts, both clips and the request in its custody record", async () => {
    expect(await keysUnder(prefix)).toEqual(
      expect.arrayContaining([
        `${prefix}data/ch1.mp4`,
        `${prefix}data/ch2.mp4`,
        `${prefix}data/event.json`,
        `${prefix}data/track.geojson`,
        `${prefix}report.html`,
      ]),
    );
    const object = await emulators.clients.s3.send(
      new GetObjectCommand({ Bucket: emulators.bucket, Key: `${prefix}manifest.json` }),
    );
    const manifest = manifestSchema.parse(
      JSON.parse(await (object.Body as { transformToString(): Promise<string> }).transformToString()),
    );
    expect(manifest).toMatchObject({
      version: 4,
      footage: { outcome: "recorded" },
      request: { reason: REASON, requestedBy: "dana" },
    });
    expect(manifest.version === 4 && manifest.clips.length).toBe(2);

    const zip = join(dir, "claim.zip");
    const pack = await fleetAlerts(["evidence", "pack", alertId, "--out", zip], {
      env: { ...emulators.env(), TABLE_NAME: emulators.tableName, EVIDENCE_BUCKET: emulators.bucket },
    });
    expect(pack.code, pack.stderr).toBe(0);
    const verified = await fleetAlerts(["evidence", "verify", zip]);
    expect(verified.code, verified.stdout).toBe(0);
    // Both clips, the request as made (data/event.json) and the track a week back.
    expect(verified.stdout).toMatch(/^OK: 4 payload files/);
  });

  it("audits who asked and why, and makes no second pack when the same footage is asked for again", async () => {
    const keysBefore = await keysUnder(prefix);
    const again = await request();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^already requested by dana at \\S+Z: the same claim pack, ${alertId} \\(ready\\)$`, "m"),
    );
    const link = LINK.exec(again.stdout)?.[1];
    expect(link).toBeDefined();
    // Settled: no job goes out again, and nothing is added to the pack.
    expect(await queuedJobs()).toEqual([]);
    expect(await keysUnder(prefix)).toEqual(keysBefore);

    const audit = new AccessAudit({ documents: emulators.clients.documents, tableName: emulators.tableName });
    const { entries } = await audit.list(alertId, { limit: 10 });
    expect(entries).toHaveLength(2);
    for (const entry of entries)
      expect(entry).toMatchObject({ action: "evidence-request", by: "dana", reason: REASON });
    const listed = await cli(["audit", alertId]);
    expect(listed.stdout).toContain(
      `evidence-request  "fleet-alerts evidence request"  "dana": ${JSON.stringify(REASON)}`,
    );
    // The link is the requester's output alone: no other command shows its token.
    expect(listed.stdout + listed.stderr).not.toContain(link);
  });
});
