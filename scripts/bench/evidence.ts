import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { AlertStore } from "@fleet-alerts/core/alerts";
import { evidenceWindow } from "@fleet-alerts/core/evidence";
import { start } from "@fleet-alerts/simulator";
import { type Emulators, startEmulators } from "../../packages/local/src/emulators.js";
import { sqsEvent } from "../../packages/local/src/sqs-event.js";
import type { SynthesizedHandlers } from "./handlers.js";

export interface EvidenceFigures {
  clipMinutes: number;
  bitrateBitsPerSecond: number;
  /** The clip as stored in the evidence bucket. */
  storedBytes: number;
  workerSeconds: number;
  workerMBps: number;
  /** The evidence worker's process, bundled handler and all. */
  workerPeakRssMiB: number;
  rawSeconds: number;
  rawMBps: number;
  /** The S3 half alone: the same size of clip from memory through the same store into fauxqs. */
  storeOnlySeconds: number;
  storeOnlyMBps: number;
}

const BITRATE = 4_000_000;
const CLIP_MINUTES = 30;
const MIB = 2 ** 20;
const run = promisify(execFile);

/**
 * One 30-minute, 4 Mbit/s clip (about 900 MB) fetched by the deployed evidence handler, run alone in
 * a fresh process, from the simulator (in this process) into fauxqs S3 (in a process of its own);
 * its peak RSS and throughput. Baseline in the same run: the same clip downloaded by the client in a
 * process of its own and thrown away, and the S3 half alone (the same store, fed from memory).
 */
export async function measureEvidence(handlers: SynthesizedHandlers): Promise<EvidenceFigures> {
  const emulators = await startEmulators({ separateProcess: true });
  const clockStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const simulator = await start({
    seed: 5,
    devices: 1,
    historyHours: 2,
    clock: { start: clockStart },
    bitrateBitsPerSecond: BITRATE,
  });
  try {
    const deviceid = simulator.control.devices()[0]?.deviceid as string;
    const eventtime = new Date(clockStart.getTime() - 60 * 60_000);
    simulator.control.setRecording(
      deviceid,
      new Date(eventtime.getTime() - 20 * 60_000),
      new Date(eventtime.getTime() + 20 * 60_000),
      1,
    );
    const event = simulator.control.injectEvent({ appdevid: 16, deviceid, eventtime });
    const alert = { account: "main", serialno: event.serialno, ruleId: "shock", deviceid };
    await new AlertStore({ documents: emulators.clients.documents, tableName: emulators.tableName }).record(
      { ...alert, appdevid: 16, eventtime: event.eventtime, severity: "critical", status: "published" },
      Date.now(),
    );
    const half = (CLIP_MINUTES * 60) / 2;
    const job = {
      version: 1,
      alertId: `main:${event.serialno}:shock`,
      ...alert,
      serialno: event.serialno.toString(),
      eventtime: event.eventtime,
      channels: [1],
      secondsBefore: half,
      secondsAfter: half,
      severity: "critical",
      event: { ...event, serialno: event.serialno.toString() },
    };

    const window = evidenceWindow(Date.parse(event.eventtime), half, half);
    const raw = await runBaseline("raw-download.ts", [
      simulator.url,
      deviceid,
      new Date(window.startMs).toISOString(),
      String(CLIP_MINUTES),
    ]);
    const storeOnly = await runBaseline("store-only.ts", [
      emulators.endpoints.s3,
      emulators.stagingBucket,
      emulators.bucket,
      String(CLIP_MINUTES),
      String(BITRATE),
    ]);

    const eventFile = join(handlers.folder, "evidence-event.json");
    await writeFile(
      eventFile,
      JSON.stringify(sqsEvent([{ MessageId: "m1", ReceiptHandle: "r1", Body: JSON.stringify(job) }])),
    );
    const worker = lastJson<{
      response: { batchItemFailures: unknown[] };
      seconds: number;
      peakRssBytes: number;
    }>(
      await run(process.execPath, ["scripts/bench/run-handler.mjs", handlers.bundles.evidence, eventFile], {
        maxBuffer: 16 * MIB,
        env: {
          ...process.env,
          ...emulators.env(),
          DEVICE_CLOUD_ACCOUNTS: JSON.stringify([{ id: "main", baseUrl: simulator.url, username: "demo" }]),
          DEVICE_CLOUD_PASSWORD: "demo",
          FLEET_UTC_OFFSET: "+0000",
          POWERTOOLS_LOG_LEVEL: "ERROR",
          NODE_OPTIONS: handlers.nodeOptions.evidence ?? "",
        },
      }),
    );
    if (worker.response.batchItemFailures.length > 0) throw new Error("the evidence job failed");
    const storedBytes = await storedClipBytes(emulators);
    if (storedBytes !== raw.bytes) throw new Error(`stored ${storedBytes} bytes of a ${raw.bytes}-byte clip`);

    return {
      clipMinutes: CLIP_MINUTES,
      bitrateBitsPerSecond: BITRATE,
      storedBytes,
      workerSeconds: round(worker.seconds),
      workerMBps: round(storedBytes / MIB / worker.seconds),
      workerPeakRssMiB: round(worker.peakRssBytes / MIB),
      rawSeconds: round(raw.seconds),
      rawMBps: round(raw.bytes / MIB / raw.seconds),
      storeOnlySeconds: round(storeOnly.seconds),
      storeOnlyMBps: round(storeOnly.bytes / MIB / storeOnly.seconds),
    };
  } finally {
    await simulator.close();
    await emulators.close();
  }
}

/** The size of the MP4 clips the job stored in the evidence bucket (not the store-only baseline's). */
async function storedClipBytes(emulators: Emulators): Promise<number> {
  const { Contents = [] } = await emulators.clients.s3.send(
    new ListObjectsV2Command({ Bucket: emulators.bucket }),
  );
  return Contents.filter((object) => object.Key?.endsWith(".mp4") && !object.Key.startsWith("bench/")).reduce(
    (total, object) => total + (object.Size ?? 0),
    0,
  );
}

/** A baseline script (TypeScript, through tsx) in a process of its own: the bytes it moved and how fast. */
async function runBaseline(script: string, args: string[]): Promise<{ bytes: number; seconds: number }> {
  return lastJson(
    await run(process.execPath, ["--import", "tsx", `scripts/bench/${script}`, ...args], {
      maxBuffer: 16 * MIB,
    }),
  );
}

function lastJson<T>({ stdout }: { stdout: string }): T {
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as T;
}

const round = (value: number) => Math.round(value * 100) / 100;
