import { createHash } from "node:crypto";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Observation } from "@fleet-alerts/core";
import { DeviceCloudClient, hashPassword } from "@fleet-alerts/core/devicecloud";
import {
  type CurrentManifest,
  collectEvidence,
  type EvidenceJobInput,
  evidenceJobSchema,
  evidenceWindow,
  S3EvidenceStore,
  trackGeoJsonSchema,
} from "@fleet-alerts/core/evidence";
import { keys } from "@fleet-alerts/core/store";
import type { FaultKind } from "@fleet-alerts/simulator";
import { check } from "@placemarkio/check-geojson";
import type { Context, SQSEvent } from "aws-lambda";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEvidenceHandler } from "../../packages/functions/src/evidence.js";
import { bagKeys, type EvidenceHarness, startEvidenceHarness } from "../support/evidence-harness.js";

const BITRATE = 256_000;

let harness: EvidenceHarness;
let emulators: EvidenceHarness["emulators"];
let simulator: EvidenceHarness["simulator"];
let env: Record<string, string>;
let deviceid: string;
let alerts: EvidenceHarness["alerts"];
let jobFor: EvidenceHarness["jobFor"];
let deliver: EvidenceHarness["deliver"];
let keysUnder: EvidenceHarness["keysUnder"];
let objectBytes: EvidenceHarness["objectBytes"];

beforeAll(async () => {
  harness = await startEvidenceHarness({ bitrateBitsPerSecond: BITRATE });
  ({ emulators, simulator, env, deviceid, alerts, jobFor, deliver, keysUnder, objectBytes } = harness);
});
afterAll(() => harness.close());
afterEach(() => simulator.control.faults.clear());

const minutes = (count: number) => count * 60_000;

async function manifestOf(prefix: string) {
  return JSON.parse((await objectBytes(`${prefix}manifest.json`)).toString("utf8")) as CurrentManifest;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The simulator's own GPS points over a job's window (in whole seconds): what /api/gps should give. */
function gpsTruth(job: EvidenceJobInput) {
  const window = evidenceWindow(Date.parse(job.eventtime), job.secondsBefore, job.secondsAfter);
  const from = new Date(Math.floor(window.startMs / 1000) * 1000);
  return simulator.control.gpsTrack(deviceid, from, new Date(Math.ceil(window.endMs / 1000) * 1000));
}

/** The SHA-256 of what the simulator serves for the same request, fetched independently. */
async function simulatorSha(request: { channel: number; durationMinutes: number; start: Date }) {
  const client = new DeviceCloudClient({
    baseUrl: simulator.url,
    credentials: { username: "demo", password: "demo" },
  });
  const download = await client.downloadPlayback({ deviceid, utcOffset: "+0100", ...request });
  const hash = createHash("sha256");
  for await (const chunk of download.body) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

describe("evidence through the SQS handler", () => {
  it("stores two channels of a 2-minute window, byte for byte, with a manifest that verifies", async () => {
    const { job, prefix, serialno } = await jobFor({ minutesAgo: 30, before: 60, after: 60 });
    expect(gpsTruth(job)).toEqual([]); // parked: no GPS points, so no track
    expect(await deliver([job])).toEqual([]);
    expect(await keysUnder(emulators.bucket, prefix)).toEqual(bagKeys(prefix, "ch1.mp4", "ch2.mp4"));
    const manifest = await manifestOf(prefix);
    expect(manifest).toMatchObject({
      version: 4,
      status: "complete",
      footage: { outcome: "recorded" },
      alert: { alertId: job.alertId, ruleId: "shock", severity: "critical" },
      event: { serialno: serialno.toString(), deviceid },
      coverage: { partial: false, missing: [] },
      software: { name: "fleet-alerts" },
      track: { status: "unavailable", reason: "empty" },
      speed: { atEventKmh: null, maxKmh: null, distanceMeters: null },
    });
    expect(manifest.clips.map((clip) => [clip.channel, clip.durationMinutes])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    for (const clip of manifest.clips) {
      const bytes = await objectBytes(clip.key);
      const sha = createHash("sha256").update(bytes).digest("hex");
      expect(sha).toBe(clip.sha256);
      expect(bytes.length).toBe(clip.bytes);
      expect(clip.mp4DurationMs).toBe(120_000);
      expect(sha).toBe(
        await simulatorSha({ channel: clip.channel, durationMinutes: 2, start: new Date(clip.startMs) }),
      );
      const head = await emulators.clients.s3.send(
        new HeadObjectCommand({ Bucket: emulators.bucket, Key: clip.key }),
      );
      expect(head.Metadata).toMatchObject({
        deviceid,
        serialno: serialno.toString(),
        sha256: sha,
        channel: String(clip.channel),
      });
      expect(clip.playback.url).toContain("/[redacted]");
      expect(clip.playback.timestamp).toMatch(/\+0100$/);
    }
    const text = JSON.stringify(manifest);
    expect(text).not.toContain(hashPassword("demo"));
    // Nothing is left in staging, and the alert record knows where the evidence is.
    expect(await keysUnder(emulators.stagingBucket)).toEqual([]);
    expect(await alerts.get("east", serialno, "shock")).toMatchObject({
      evidenceStatus: "stored",
      evidenceKeys: [
        `${prefix}manifest.json`,
        `${prefix}data/ch1.mp4`,
        `${prefix}data/ch2.mp4`,
        `${prefix}data/event.json`,
      ],
    });
    const [ready] = await emulators.readInbox({ atLeast: 1 });
    expect(ready?.attributes).toMatchObject({
      kind: { value: "evidence" },
      evidence_status: { value: "stored" },
      alert_id: { value: job.alertId },
    });
  });

  it.each([
    ["a stream cut part-way", { kind: "playbackCut" as const, cutAfterBytes: 300_000 }],
    ["an HTML error page with status 200", { kind: "htmlPage200" as const }],
    ["HTTP 500", { kind: "status500" as const }],
    ["a time-out", { kind: "latency" as const, latencyMs: 3_000 }], // past the harness's 2 s
  ])("leaves no object and retries after %s", async (_label, fault) => {
    const { job, prefix } = await jobFor({ minutesAgo: 40, before: 30, after: 30, channels: [1] });
    simulator.control.faults.add({ endpoint: "dlplayback", ...fault });
    expect(await deliver([job])).toEqual(["m0"]);
    expect(await keysUnder(emulators.bucket, prefix)).toEqual([]);
    expect(await keysUnder(emulators.stagingBucket)).toEqual([]);
    simulator.control.faults.clear();
    expect(await deliver([job])).toEqual([]);
    expect(await keysUnder(emulators.bucket, prefix)).toEqual(bagKeys(prefix, "ch1.mp4"));
    await emulators.readInbox({ atLeast: 1 });
  });

  it("comes back later for footage an online device has not uploaded yet, and gives up as unavailable", async () => {
    const recent = await jobFor({ minutesAgo: 10, before: 30, after: 30, recorded: false });
    // Online: its upload may still come (an offline one's job is parked: evidence-waiting.test.ts).
    simulator.control.setOnline(deviceid, true, { hold: true, logEvent: false });
    const seen: Observation[] = [];
    const observer = { observe: (observation: Observation) => void seen.push(observation) };
    expect(await deliver([recent.job], 1, env, { observer })).toEqual([]);
    expect(seen).toEqual([
      expect.objectContaining({
        type: "evidence-waiting",
        alertId: recent.job.alertId,
        attempt: 0,
        retryInSeconds: 60,
      }),
    ]);
    simulator.control.release(deviceid);
    expect(await keysUnder(emulators.bucket, recent.prefix)).toEqual([]);
    const requeued = await emulators.clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: emulators.queues.evidence,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
      }),
    );
    // Sent again with a delay: not receivable at once.
    expect(requeued.Messages ?? []).toEqual([]);
    const old = await jobFor({ minutesAgo: 120, before: 30, after: 30, recorded: false });
    expect(await deliver([old.job])).toEqual([]);
    // No video, but a bag all the same: the event, the track, and the report saying why.
    expect(await keysUnder(emulators.bucket, old.prefix)).toEqual(bagKeys(old.prefix, "track.geojson"));
    expect(await alerts.get("east", old.serialno, "shock")).toMatchObject({ evidenceStatus: "unavailable" });
    const notices = (await emulators.readInbox({ atLeast: 1 })).filter(
      (message) => message.attributes.alert_id?.value === old.job.alertId,
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]?.attributes).toMatchObject({
      kind: { value: "evidence" },
      evidence_status: { value: "unavailable" },
    });
  });

  it("fetches what a partly recorded window has, and says so", async () => {
    const { job, prefix } = await jobFor({ minutesAgo: 50, before: 120, after: 120, channels: [1] });
    const eventMs = Date.parse(job.eventtime);
    // The two minutes after the event were never recorded.
    simulator.control.setRecording(deviceid, new Date(eventMs + 1_000), new Date(eventMs + minutes(3)), 0);
    expect(await deliver([job])).toEqual([]);
    const manifest = await manifestOf(prefix);
    expect(manifest.coverage.partial).toBe(true);
    expect(manifest.coverage.recordedMinutes).toBeLessThan(manifest.coverage.totalMinutes);
    expect(manifest.coverage.missing.length).toBeGreaterThan(0);
    expect(manifest.clips[0]?.durationMinutes).toBeLessThan(5);
    await emulators.readInbox({ atLeast: 1 });
  });

  it("stores one set of objects and announces once when a job is delivered twice", async () => {
    const { job, prefix } = await jobFor({ minutesAgo: 60, before: 30, after: 30, channels: [1] });
    const before = simulator.control.playbacks.length;
    expect(await deliver([job, job])).toEqual([]);
    expect(await deliver([job])).toEqual([]);
    expect(await keysUnder(emulators.bucket, prefix)).toEqual(bagKeys(prefix, "ch1.mp4", "track.geojson"));
    expect(simulator.control.playbacks.length - before).toBeLessThanOrEqual(2);
    const messages = await emulators.readInbox({ atLeast: 1, waitMs: 1_000 });
    expect(messages.filter((message) => message.attributes.alert_id?.value === job.alertId)).toHaveLength(1);
  });

  it("stores a stale alert's claim pack and tells no one: the alert was not sent, nor is its evidence notice", async () => {
    const { job, serialno, prefix } = await jobFor({
      minutesAgo: 70,
      before: 30,
      after: 30,
      channels: [1],
      status: "stale",
    });
    expect(await deliver([job, job])).toEqual([]);
    expect(await keysUnder(emulators.bucket, prefix)).toEqual(bagKeys(prefix, "ch1.mp4", "track.geojson"));
    const record = await alerts.get("east", serialno, "shock");
    expect(record).toMatchObject({ status: "stale", evidenceStatus: "stored" });
    const notices = await emulators.readInbox({ atLeast: 0, waitMs: 1_000 });
    expect(notices.filter((message) => message.attributes.alert_id?.value?.startsWith(job.alertId))).toEqual(
      [],
    );
  });

  it("sends the evidence-ready notice to the alert's email recipients, one message each", async () => {
    const { job, serialno } = await jobFor({ minutesAgo: 65, before: 30, after: 30, channels: [1] });
    const route = {
      groups: ["depot"],
      held: [],
      email: ["e-00000000000000a1", "e-00000000000000a2"],
      sms: ["s-00000000000000b1"],
      smsCapped: [],
      targets: [],
    };
    await emulators.clients.documents.send(
      new UpdateCommand({
        TableName: emulators.tableName,
        Key: { pk: keys.account("east"), sk: keys.alert(serialno, "shock") },
        UpdateExpression: "SET #route = :route",
        ExpressionAttributeNames: { "#route": "route" },
        ExpressionAttributeValues: { ":route": route },
      }),
    );
    expect(await deliver([job])).toEqual([]);
    const notices = (await emulators.readInbox({ atLeast: 2, waitMs: 2_000 })).filter(
      (message) => message.attributes.alert_id?.value === job.alertId,
    );
    expect(notices.map((message) => message.attributes.to?.value).sort()).toEqual(route.email);
  });

  it("splits a 45-minute window into a 30- and a 15-minute request, two clips per channel", async () => {
    const { job, prefix } = await jobFor({ minutesAgo: 90, before: 1_500, after: 1_200, channels: [1] });
    const before = simulator.control.playbacks.length;
    expect(await deliver([job])).toEqual([]);
    // Only this job's requests: attempts an earlier test abandoned may still be served late.
    const eventMs = Date.parse(job.eventtime);
    const mine = simulator.control.playbacks
      .slice(before)
      .filter((playback) => Math.abs(playback.start.getTime() - eventMs) <= minutes(30));
    expect(mine.map((playback) => playback.durationMinutes)).toEqual([30, 15]);
    expect(await keysUnder(emulators.bucket, prefix)).toEqual(
      bagKeys(prefix, "ch1-part1.mp4", "ch1-part2.mp4", "track.geojson"),
    );
    const manifest = await manifestOf(prefix);
    expect(manifest.clips.map((clip) => [clip.part, clip.durationMinutes, clip.mp4DurationMs])).toEqual([
      [0, 30, 1_800_000],
      [1, 15, 900_000],
    ]);
    expect((manifest.clips[1]?.startMs ?? 0) - (manifest.clips[0]?.startMs ?? 0)).toBe(minutes(30));
    await emulators.readInbox({ atLeast: 1 });
  });

  it("fetches only the channels the device has, and lists the others as skipped", async () => {
    const { job, prefix } = await jobFor({ minutesAgo: 100, before: 30, after: 30, channels: [1, 9] });
    expect(await deliver([job])).toEqual([]);
    expect(await keysUnder(emulators.bucket, prefix)).toEqual(bagKeys(prefix, "ch1.mp4", "track.geojson"));
    expect((await manifestOf(prefix)).skippedChannels).toEqual([9]);
    await emulators.readInbox({ atLeast: 1 });
  });

  it("marks the evidence failed on the last receive before the DLQ", async () => {
    const { job, serialno } = await jobFor({ minutesAgo: 70, before: 30, after: 30, channels: [1] });
    simulator.control.faults.add({ endpoint: "dlplayback", kind: "status500" });
    expect(await deliver([job], 5)).toEqual(["m0"]);
    expect(await alerts.get("east", serialno, "shock")).toMatchObject({ evidenceStatus: "failed" });
  });
});

describe("the track beside the clips", () => {
  it("stores track.geojson from /api/gps: valid GeoJSON, hashed in the manifest, with the speed summary", async () => {
    const { job, prefix, serialno } = await jobFor({ minutesAgo: 65, before: 30, after: 30, channels: [1] });
    const truth = gpsTruth(job);
    expect(truth.length).toBeGreaterThan(10);
    expect(await deliver([job])).toEqual([]);
    const key = `${prefix}data/track.geojson`;
    expect(await keysUnder(emulators.bucket, prefix)).toEqual(bagKeys(prefix, "ch1.mp4", "track.geojson"));

    const bytes = await objectBytes(key);
    const text = bytes.toString("utf8");
    check(text); // throws on anything that is not RFC 7946 GeoJSON
    const manifest = await manifestOf(prefix);
    expect(manifest.track).toEqual({
      status: "stored",
      key,
      sha256: sha256(bytes),
      bytes: bytes.length,
      points: truth.length,
    });
    const head = await emulators.clients.s3.send(
      new HeadObjectCommand({ Bucket: emulators.bucket, Key: key }),
    );
    expect(head.ContentType).toBe("application/geo+json");
    expect(head.Metadata?.sha256).toBe(sha256(bytes));

    const [line, event] = trackGeoJsonSchema.parse(JSON.parse(text)).features;
    expect(line?.geometry).toEqual({ type: "LineString", coordinates: truth.map((p) => [p.lng, p.lat]) });
    expect(line?.properties).toMatchObject({ deviceid, speedsKmh: truth.map((p) => p.speed) });
    expect(event?.properties).toMatchObject({ kind: "event", source: "track", time: job.eventtime });

    // The simulator's speeds are km/h (the account's default unit). The path length agrees with
    // them: the mean speed over the time from the first point to the last, within 5%.
    const eventSeconds = Date.parse(job.eventtime) / 1000;
    const nearest = [...truth].sort(
      (a, b) => Math.abs(a.time - eventSeconds) - Math.abs(b.time - eventSeconds),
    )[0];
    expect(manifest.speed).toMatchObject({
      atEventKmh: nearest?.speed,
      maxKmh: Math.max(...truth.map((p) => p.speed)),
    });
    const meanKmh = truth.reduce((sum, p) => sum + p.speed, 0) / truth.length;
    const spanSeconds = (truth.at(-1)?.time ?? 0) - (truth[0]?.time ?? 0);
    const expectedMeters = (meanKmh / 3.6) * spanSeconds;
    expect(Math.abs((manifest.speed.distanceMeters ?? 0) - expectedMeters) / expectedMeters).toBeLessThan(
      0.05,
    );

    expect(await alerts.get("east", serialno, "shock")).toMatchObject({
      evidenceKeys: [`${prefix}manifest.json`, `${prefix}data/ch1.mp4`, `${prefix}data/event.json`, key],
    });
    expect(text).not.toContain(hashPassword("demo"));
    await emulators.readInbox({ atLeast: 1 });
  });

  it.each([
    ["HTTP 500", "status500", "failed", 75],
    ["a malformed answer", "malformedJson", "malformed", 85],
  ] as const)(
    "records the track unavailable after %s from /api/gps, and still stores the clips",
    async (_label, kind: FaultKind, reason, minutesAgo) => {
      const { job, prefix } = await jobFor({ minutesAgo, before: 30, after: 30, channels: [1] });
      expect(gpsTruth(job).length).toBeGreaterThan(0);
      simulator.control.faults.add({ endpoint: "gps", kind });
      // Done, not retried: the clips are in, and the manifest says why there is no track.
      expect(await deliver([job])).toEqual([]);
      expect(await keysUnder(emulators.bucket, prefix)).toEqual(bagKeys(prefix, "ch1.mp4"));
      const manifest = await manifestOf(prefix);
      expect(manifest.clips).toHaveLength(1);
      expect(manifest.track).toEqual({ status: "unavailable", reason });
      expect(manifest.speed).toEqual({ atEventKmh: null, maxKmh: null, distanceMeters: null });
      await emulators.readInbox({ atLeast: 1 });
    },
  );

  it("reads /api/gps speeds in the account's gpsSpeedUnit", async () => {
    const { job, prefix } = await jobFor({ minutesAgo: 95, before: 30, after: 30, channels: [1] });
    const truth = gpsTruth(job);
    expect(truth.length).toBeGreaterThan(1);
    const accounts = (JSON.parse(env.DEVICE_CLOUD_ACCOUNTS as string) as object[]).map((account) => ({
      ...account,
      gpsSpeedUnit: "mph",
    }));
    expect(await deliver([job], 1, { ...env, DEVICE_CLOUD_ACCOUNTS: JSON.stringify(accounts) })).toEqual([]);
    const { speed } = await manifestOf(prefix);
    expect(speed.maxKmh).toBeCloseTo(Math.max(...truth.map((p) => p.speed)) * 1.609344, 2);
    await emulators.readInbox({ atLeast: 1 });
  });
});

describe("evidence after a crash", () => {
  it("repairs a crash between the clips and the manifest without fetching again", async () => {
    const { job, prefix } = await jobFor({ minutesAgo: 80, before: 60, after: 60 });
    const s3Store = new S3EvidenceStore(emulators.clients.s3, {
      evidence: emulators.bucket,
      staging: emulators.stagingBucket,
    });
    const crashing = Object.assign(Object.create(s3Store) as S3EvidenceStore, {
      putManifest: async () => {
        throw new Error("crash before the manifest");
      },
    });
    const { deps, settings } = harness.direct;
    const parsed = evidenceJobSchema.parse(job);
    await expect(collectEvidence(parsed, settings, { ...deps, store: crashing })).rejects.toThrow(
      "crash before the manifest",
    );
    // The track and the event were stored before the crash; the next run rewrites them, then
    // writes the manifest and the rest of the bag.
    expect(await keysUnder(emulators.bucket, prefix)).toEqual([
      `${prefix}data/ch1.mp4`,
      `${prefix}data/ch2.mp4`,
      `${prefix}data/event.json`,
      `${prefix}data/track.geojson`,
    ]);
    const fetched = simulator.control.playbacks.length;
    expect(await collectEvidence(parsed, settings, { ...deps, store: s3Store })).toMatchObject({
      kind: "stored",
      clips: 2,
    });
    expect(simulator.control.playbacks.length).toBe(fetched); // the stored clips were reused
    expect(await keysUnder(emulators.bucket, prefix)).toEqual(
      bagKeys(prefix, "ch1.mp4", "ch2.mp4", "track.geojson"),
    );
    const manifest = await manifestOf(prefix);
    for (const clip of manifest.clips) expect(sha256(await objectBytes(clip.key))).toBe(clip.sha256);
    expect(manifest.track.status).toBe("stored");
    if (manifest.track.status === "stored")
      expect(sha256(await objectBytes(manifest.track.key))).toBe(manifest.track.sha256);
    await emulators.readInbox({ atLeast: 1 });
  });
});

describe("evidence configuration", () => {
  it("fails the invocation with an error naming the variable, never its value", async () => {
    const broken: Record<string, string | undefined> = {
      ...env,
      EVIDENCE_STAGING_BUCKET: undefined,
      FLEET_UTC_OFFSET: "+2500",
    };
    const invoke = () => createEvidenceHandler(broken)({ Records: [] } as unknown as SQSEvent, {} as Context);
    const error = (await invoke().catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(/EVIDENCE_STAGING_BUCKET: missing; FLEET_UTC_OFFSET: /);
    expect(error.message).not.toContain("demo");
  });
});
