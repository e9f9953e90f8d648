import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { CreateBucketCommand, DeleteObjectsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { AlertStore } from "@fleet-alerts/core/alerts";
import { utcOffsetSchema } from "@fleet-alerts/core/devicecloud";
import { evidencePrefix, evidenceWindow, playbackSegments } from "@fleet-alerts/core/evidence";
import { type Emulators, startEmulators } from "../../packages/local/src/emulators.js";
import { sqsEvent } from "../../packages/local/src/sqs-event.js";
import { clipVideos } from "../../packages/simulator/src/video/clip-videos.js";
import { benchDevice, jobOf } from "./bench-device.js";
import type { SynthesizedHandlers } from "./handlers.js";
import { lastJsonLine, runHandlerAsLambda } from "./lambda-process.js";

export interface EvidenceFigures {
  clipMinutes: number;
  bitrateBitsPerSecond: number;
  /** The clip as stored in the evidence bucket (each run stores the same size). */
  storedBytes: number;
  /** The worker's runs, each in a fresh process on a clip of its own (a new event): time, throughput, peak RSS. */
  runs: WorkerRun[];
  /** The first run's time: the set the claim pack is measured around. */
  workerSeconds: number;
  /** The median of the runs' throughputs. */
  workerMBps: number;
  /** The highest of the runs' peak RSS (the evidence worker's process, bundled handler and all). */
  workerPeakRssMiB: number;
  rawSeconds: number;
  rawMBps: number;
  /** The S3 half alone: the same size of clip from memory through the same store into fauxqs (median of three). */
  storeOnlySeconds: number;
  storeOnlyMBps: number;
  /** The claim pack around this set, and around the same set at a 31 times lower bitrate: time and memory should not grow with the clips. */
  bag: { large: BagFigures; small: BagFigures };
}

export interface WorkerRun {
  seconds: number;
  MBps: number;
  peakRssMiB: number;
}

export interface BagFigures {
  clipBytes: number;
  medianMs: number;
  /** The bag process's resident memory at its peak, over what it held before the first bag. */
  rssGrowthMiB: number;
  peakRssMiB: number;
}

const BITRATE = 4_000_000;
/** The evidence worker's FLEET_UTC_OFFSET: it writes playback times at this offset. */
const FLEET_UTC_OFFSET = "+0000";
const LOW_BITRATE = 128_000;
const LOW_RATE_ACCOUNT = "low-rate";
const LOW_RATE_BUCKET = "bench-low-rate-evidence";
const CLIP_MINUTES = 30;
/** Runs of the worker: its peak memory varies from run to run (garbage collection), and the target is for every run. */
const WORKER_RUNS = 5;
const MIB = 2 ** 20;
const run = promisify(execFile);

/**
 * A 30-minute, 4 Mbit/s clip (about 900 MB) fetched by the deployed evidence handler, run alone in
 * a fresh process, from the simulator (in this process) into fauxqs S3 (in a process of its own),
 * five times, each run a new event with its own clip; each run's peak RSS and throughput.
 * Baselines in the same run: the same clip downloaded by the client in a process of its own and
 * thrown away, and the S3 half alone (the same store, fed from memory).
 */
export async function measureEvidence(handlers: SynthesizedHandlers): Promise<EvidenceFigures> {
  const emulators = await startEmulators({ separateProcess: true });
  const clockStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const eventtime = new Date(clockStart.getTime() - 60 * 60_000);
  const { simulator, deviceid, event } = await benchDevice(clockStart, eventtime, BITRATE);
  try {
    const alert = { account: "north", serialno: event.serialno, ruleId: "shock", deviceid };
    const alerts = new AlertStore({ documents: emulators.clients.documents, tableName: emulators.tableName });
    await alerts.record(
      { ...alert, appdevid: 16, eventtime: event.eventtime, severity: "critical", status: "published" },
      Date.now(),
    );
    const half = (CLIP_MINUTES * 60) / 2;
    const job = jobOf(event, half);

    const window = evidenceWindow(Date.parse(event.eventtime), half, half);
    const raw = await runBaseline("raw-download.ts", [
      simulator.url,
      deviceid,
      new Date(window.startMs).toISOString(),
      String(CLIP_MINUTES),
    ]);
    // The S3 half alone, timed three times (before, between and after the worker's runs: the
    // machine's speed drifts over a run), each clip deleted once counted; the median is the baseline.
    const storeOnlyRuns: { bytes: number; seconds: number }[] = [];
    const storeOnly = async () => {
      const key = `bench/store-only-${storeOnlyRuns.length + 1}.mp4`;
      storeOnlyRuns.push(
        await runBaseline("store-only.ts", [
          emulators.endpoints.s3,
          emulators.stagingBucket,
          emulators.bucket,
          String(CLIP_MINUTES),
          String(BITRATE),
          key,
        ]),
      );
      await deleteSet(emulators, key);
    };
    await storeOnly();

    const runWorker = async (evidenceJob: typeof job, name: string, env: Record<string, string> = {}) => {
      const eventFile = join(handlers.folder, `${name}-event.json`);
      await writeFile(
        eventFile,
        JSON.stringify(
          sqsEvent([{ MessageId: "m1", ReceiptHandle: "r1", Body: JSON.stringify(evidenceJob) }]),
        ),
      );
      const worker = await runHandlerAsLambda<{
        response: { batchItemFailures: unknown[] };
        seconds: number;
        peakRssBytes: number;
      }>({
        bundle: handlers.bundles.evidence,
        eventFile,
        startup: handlers.startup.evidence,
        memoryMb: handlers.memoryMb.evidence,
        env: {
          ...process.env,
          ...emulators.env(),
          DEVICE_CLOUD_ACCOUNTS: JSON.stringify([{ id: "north", baseUrl: simulator.url, username: "demo" }]),
          DEVICE_CLOUD_PASSWORD: "demo",
          FLEET_UTC_OFFSET,
          POWERTOOLS_LOG_LEVEL: "ERROR",
          ...env,
        },
      });
      if (worker.response.batchItemFailures.length > 0) throw new Error(`the ${name} evidence job failed`);
      return worker;
    };
    const runs: WorkerRun[] = [];
    let storedBytes = 0;
    for (let run = 1; run <= WORKER_RUNS; run++) {
      // The first run's set stays for the claim pack below; later runs are events of their own, a
      // second apart, and their clips are deleted once counted (fauxqs holds objects in memory).
      const runEvent =
        run === 1
          ? event
          : simulator.control.injectEvent({
              appdevid: 16,
              deviceid,
              eventtime: new Date(eventtime.getTime() + (run - 1) * 1000),
            });
      if (run > 1)
        await alerts.record(
          {
            ...alert,
            serialno: runEvent.serialno,
            appdevid: 16,
            eventtime: runEvent.eventtime,
            severity: "critical",
            status: "published",
          },
          Date.now(),
        );
      const runJob = run === 1 ? job : jobOf(runEvent, half);
      await encodeClipVideos(deviceid, evidenceWindow(Date.parse(runEvent.eventtime), half, half));
      const worker = await runWorker(runJob, `large-${run}`);
      storedBytes = await storedClipBytes(emulators, evidencePrefix(runJob));
      if (storedBytes !== raw.bytes)
        throw new Error(`stored ${storedBytes} bytes of a ${raw.bytes}-byte clip`);
      if (run > 1) await deleteSet(emulators, evidencePrefix(runJob));
      runs.push({
        seconds: round(worker.seconds),
        MBps: round(storedBytes / MIB / worker.seconds),
        peakRssMiB: round(worker.peakRssBytes / MIB),
      });
      if (run === Math.ceil(WORKER_RUNS / 2)) await storeOnly();
    }
    await storeOnly();

    // The same set at a 31 times lower bitrate: the same device, event and window (a simulator of
    // the same seed), so the same track and report, and clips of 29 MB instead of 900 MB. Its
    // account and bucket are its own, as the alert id and the prefix are the large set's.
    let bag: EvidenceFigures["bag"];
    const { simulator: lowRate, event: lowEvent } = await benchDevice(clockStart, eventtime, LOW_BITRATE);
    try {
      await alerts.record(
        {
          ...alert,
          account: LOW_RATE_ACCOUNT,
          serialno: lowEvent.serialno,
          appdevid: 16,
          eventtime: lowEvent.eventtime,
          severity: "critical",
          status: "published",
        },
        Date.now(),
      );
      await emulators.clients.s3.send(new CreateBucketCommand({ Bucket: LOW_RATE_BUCKET }));
      const lowJob = {
        ...jobOf(lowEvent, half),
        account: LOW_RATE_ACCOUNT,
        alertId: `${LOW_RATE_ACCOUNT}:${lowEvent.serialno}:shock`,
      };
      await runWorker(lowJob, "low-rate", {
        DEVICE_CLOUD_ACCOUNTS: JSON.stringify([
          { id: LOW_RATE_ACCOUNT, baseUrl: lowRate.url, username: "demo" },
        ]),
        EVIDENCE_BUCKET: LOW_RATE_BUCKET,
      });
      bag = {
        large: await measureBag(emulators, emulators.bucket, job, handlers.folder),
        small: await measureBag(emulators, LOW_RATE_BUCKET, lowJob, handlers.folder),
      };
    } finally {
      await lowRate.close();
    }

    return {
      clipMinutes: CLIP_MINUTES,
      bitrateBitsPerSecond: BITRATE,
      storedBytes,
      runs,
      workerSeconds: runs[0]?.seconds ?? 0,
      workerMBps: median(runs.map((run) => run.MBps)),
      workerPeakRssMiB: Math.max(...runs.map((run) => run.peakRssMiB)),
      rawSeconds: round(raw.seconds),
      rawMBps: round(raw.bytes / MIB / raw.seconds),
      storeOnlySeconds: median(storeOnlyRuns.map((run) => run.seconds)),
      storeOnlyMBps: median(storeOnlyRuns.map((run) => round(run.bytes / MIB / run.seconds))),
      bag,
    };
  } finally {
    await simulator.close();
    await emulators.close();
  }
}

/** The claim pack written again around a stored set, in a process of its own (bag-only.ts), 10 times. */
async function measureBag(
  emulators: Emulators,
  bucket: string,
  job: ReturnType<typeof jobOf>,
  folder: string,
): Promise<BagFigures> {
  const jobFile = join(folder, `bag-job-${job.serialno}.json`);
  await writeFile(jobFile, JSON.stringify(job));
  const figures = await runBaseline<{
    medianMs: number;
    rssBeforeBytes: number;
    peakRssBytes: number;
    clipBytes: number;
  }>("bag-only.ts", [emulators.endpoints.s3, bucket, evidencePrefix(job), jobFile, "10"]);
  return {
    clipBytes: figures.clipBytes,
    medianMs: round(figures.medianMs),
    rssGrowthMiB: round((figures.peakRssBytes - figures.rssBeforeBytes) / MIB),
    peakRssMiB: round(figures.peakRssBytes / MIB),
  };
}

/**
 * Has the simulator (in this process) encode the video of each clip the worker will ask for, before
 * the worker's clock starts, as the S3 half's baseline encodes its clip before its own: the
 * simulator's encoder (about 0.2 to 0.3 s a clip) stands in for a device cloud serving recorded
 * files, and is not the worker's time. The simulator keeps encoded videos by clip, so the playback
 * request finds it ready, its offset read as the worker reads FLEET_UTC_OFFSET.
 */
async function encodeClipVideos(deviceid: string, window: { startMs: number; endMs: number }): Promise<void> {
  for (const segment of playbackSegments(window))
    await clipVideos.video({
      deviceid,
      channel: 1,
      startMs: segment.startMs,
      durationMinutes: segment.durationMinutes,
      utcOffsetMinutes: utcOffsetSchema.parse(FLEET_UTC_OFFSET),
    });
}

/** The size of the MP4 clips a job stored under its prefix in the evidence bucket. */
async function storedClipBytes(emulators: Emulators, prefix: string): Promise<number> {
  const { Contents = [] } = await emulators.clients.s3.send(
    new ListObjectsV2Command({ Bucket: emulators.bucket, Prefix: prefix }),
  );
  return Contents.filter((object) => object.Key?.endsWith(".mp4")).reduce(
    (total, object) => total + (object.Size ?? 0),
    0,
  );
}

/** Deletes every object of a stored set (the emulator keeps them in memory). */
async function deleteSet(emulators: Emulators, prefix: string): Promise<void> {
  const { Contents = [] } = await emulators.clients.s3.send(
    new ListObjectsV2Command({ Bucket: emulators.bucket, Prefix: prefix }),
  );
  await emulators.clients.s3.send(
    new DeleteObjectsCommand({
      Bucket: emulators.bucket,
      Delete: { Objects: Contents.map((object) => ({ Key: object.Key })) },
    }),
  );
}

/** A baseline script (TypeScript, through tsx) in a process of its own: the bytes it moved and how fast. */
async function runBaseline<T = { bytes: number; seconds: number }>(
  script: string,
  args: string[],
): Promise<T> {
  return lastJsonLine(
    await run(process.execPath, ["--import", "tsx", `scripts/bench/${script}`, ...args], {
      maxBuffer: 16 * MIB,
    }),
  );
}

const round = (value: number) => Math.round(value * 100) / 100;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : round(((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2);
}
