import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { ignoreObservations } from "@fleet-alerts/core";
import { AlertStore, SnsAlertPublisher } from "@fleet-alerts/core/alerts";
import { DeviceCloudClient } from "@fleet-alerts/core/devicecloud";
import {
  type ClaimPackJob,
  type EvidenceDependencies,
  type EvidenceJobInput,
  type EvidenceSettings,
  evidencePrefix,
  ParkedJobStore,
  type ParkedSweepMessage,
  S3EvidenceStore,
} from "@fleet-alerts/core/evidence";
import { NoticeClaims } from "@fleet-alerts/core/notices";
import { SqsSender } from "@fleet-alerts/core/queue";
import { type SimEvent, type Simulator, start } from "@fleet-alerts/simulator";
import type { Context } from "aws-lambda";
import { createEvidenceHandler } from "../../packages/functions/src/evidence.js";
import type { RuntimeOverrides } from "../../packages/functions/src/runtime.js";
import { sqsEvent } from "../../packages/local/src/sqs-event.js";
import { type Emulators, startEmulators } from "./emulators.js";

const minutes = (count: number) => count * 60_000;

/** The tag files every claim pack has (no timestamp: this stage has no TSA). */
const TAG_FILES = [
  "bag-info.txt",
  "bagit.txt",
  "manifest-sha256.txt",
  "manifest.json",
  "report.html",
  "tagmanifest-sha256.txt",
];

/** Every key of a claim pack under `prefix`: its tag files, its event file and the payload named. */
export function bagKeys(prefix: string, ...payload: string[]) {
  return [...TAG_FILES, "data/event.json", ...payload.map((file) => `data/${file}`)]
    .map((file) => `${prefix}${file}`)
    .sort();
}

export interface EvidenceHarness {
  emulators: Emulators;
  simulator: Simulator;
  /** The evidence function's environment. */
  env: Record<string, string>;
  /** A device with two channels or more. */
  deviceid: string;
  alerts: AlertStore;
  clockStart: Date;
  jobFor(options: JobOptions): Promise<{ job: EvidenceJobInput; serialno: bigint; prefix: string }>;
  /** Delivers jobs (evidence, claim-pack, the parked-evidence sweep) to the real handler as SQS would; the ids of the messages that failed. */
  deliver(
    jobs: (EvidenceJobInput | ClaimPackJob | ParkedSweepMessage)[],
    receiveCount?: number,
    handlerEnv?: Record<string, string>,
    overrides?: RuntimeOverrides,
  ): Promise<string[]>;
  /** What `collectEvidence` is given when a test calls it directly (the clock: the real one). */
  direct: {
    settings: EvidenceSettings;
    deps: EvidenceDependencies & { store: S3EvidenceStore };
  };
  /** The table's parked evidence jobs. */
  parked: ParkedJobStore;
  keysUnder(bucket: string, prefix?: string): Promise<string[]>;
  objectBytes(key: string): Promise<Buffer>;
  close(): Promise<void>;
}

export interface JobOptions {
  minutesAgo: number;
  before: number;
  after: number;
  channels?: number[];
  recorded?: boolean;
  /** The alert record's status; `published` unless a stale alert's evidence is tested. */
  status?: "published" | "stale";
}

/**
 * The evidence function's world for tests: the simulator (its clock starting at the real time, so
 * that "not recorded yet" and "given up" mean what they would in production), the emulators, and
 * alert records with their jobs. `env` is added to the function's environment.
 */
export async function startEvidenceHarness(options: {
  bitrateBitsPerSecond: number;
  env?: Record<string, string>;
}): Promise<EvidenceHarness> {
  const clockStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const emulators = await startEmulators();
  const simulator = await start({
    seed: 1,
    devices: 4,
    historyHours: 3,
    clock: { start: clockStart },
    bitrateBitsPerSecond: options.bitrateBitsPerSecond,
  });
  const deviceid = simulator.control.devices().find((device) => device.channels >= 2)?.deviceid as string;
  const env = {
    ...emulators.env(),
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify([
      // The simulator encodes each clip before its first byte, which on a loaded runner outlasts a
      // short wait: a retry would add playback requests the tests count.
      { id: "east", baseUrl: simulator.url, username: "demo", timeoutMs: 500, playbackTimeoutMs: 2_000 },
    ]),
    DEVICE_CLOUD_PASSWORD: "demo",
    FLEET_UTC_OFFSET: "+0100",
    // An hour: "given up" within a test's simulated history (EVIDENCE_MAX_WAIT_DAYS takes fractions).
    EVIDENCE_MAX_WAIT_DAYS: String(1 / 24),
    ...options.env,
  };
  const table = { documents: emulators.clients.documents, tableName: emulators.tableName };
  const alerts = new AlertStore(table);
  const parked = new ParkedJobStore(table);
  const direct = {
    settings: {
      utcOffsetMinutes: 60,
      maxWaitDays: 1 / 24,
      retryDelaySeconds: 60,
      evidenceBucket: emulators.bucket,
      software: { name: "fleet-alerts", version: "test" },
      track: { speedUnit: "km/h" as const, lookups: true },
      claimPack: {
        sourceOrganization: "Example Fleet Ltd",
        fleetTimeZone: "Europe/Berlin",
        functionVersion: "test",
      },
    },
    deps: {
      store: new S3EvidenceStore(emulators.clients.s3, {
        evidence: emulators.bucket,
        staging: emulators.stagingBucket,
      }),
      client: new DeviceCloudClient({
        baseUrl: simulator.url,
        credentials: { username: "demo", password: "demo" },
      }),
      alerts,
      publisher: new SnsAlertPublisher(emulators.clients.sns, emulators.topicArn),
      requeue: new SqsSender(emulators.clients.sqs, emulators.queues.evidence),
      parked,
      retention: { retentionDays: async () => undefined },
      claims: new NoticeClaims(table),
      observer: ignoreObservations,
      now: Date.now,
      wallClock: Date.now,
    },
  };

  /**
   * An alert record and its evidence job, for an event `minutesAgo` before the clock start, with
   * footage recorded or not. The seeded device drives from about 45 to 125 minutes before the clock
   * start: windows there have GPS points (a track), those after it none.
   */
  async function jobFor(job: JobOptions) {
    const eventtime = new Date(clockStart.getTime() - minutes(job.minutesAgo));
    const from = new Date(eventtime.getTime() - job.before * 1000 - minutes(1));
    const to = new Date(eventtime.getTime() + job.after * 1000 + minutes(1));
    simulator.control.setRecording(deviceid, from, to, job.recorded === false ? 0 : 1);
    const event: SimEvent = simulator.control.injectEvent({ appdevid: 16, deviceid, eventtime });
    const serialno = event.serialno;
    await alerts.record(
      {
        account: "east",
        serialno,
        ruleId: "shock",
        deviceid,
        appdevid: 16,
        eventtime: event.eventtime,
        severity: "critical",
        status: job.status ?? "published",
      },
      Date.now(),
    );
    return {
      job: {
        version: 1 as const,
        alertId: `east:${serialno}:shock`,
        account: "east",
        ruleId: "shock",
        deviceid,
        serialno: serialno.toString(),
        eventtime: event.eventtime,
        channels: job.channels ?? [1, 2],
        secondsBefore: job.before,
        secondsAfter: job.after,
        severity: "critical",
        event: { ...event, serialno: serialno.toString() },
      },
      serialno,
      prefix: evidencePrefix({ deviceid, eventtime: event.eventtime, serialno: serialno.toString() }),
    };
  }

  async function deliver(
    jobs: (EvidenceJobInput | ClaimPackJob | ParkedSweepMessage)[],
    receiveCount = 1,
    handlerEnv = env,
    overrides: RuntimeOverrides = {},
  ) {
    const event = sqsEvent(
      jobs.map((job, index) => ({
        MessageId: `m${index}`,
        ReceiptHandle: `r${index}`,
        Body: JSON.stringify(job),
        Attributes: { ApproximateReceiveCount: String(receiveCount) },
      })),
    );
    const response = await createEvidenceHandler(handlerEnv, overrides)(event, {} as Context);
    return response.batchItemFailures.map((failure) => failure.itemIdentifier);
  }

  async function keysUnder(bucket: string, prefix = "") {
    const listed = await emulators.clients.s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }),
    );
    return (listed.Contents ?? []).map((object) => object.Key as string).sort();
  }

  async function objectBytes(key: string) {
    const object = await emulators.clients.s3.send(
      new GetObjectCommand({ Bucket: emulators.bucket, Key: key }),
    );
    return Buffer.from(
      await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    );
  }

  return {
    emulators,
    simulator,
    env,
    deviceid,
    alerts,
    clockStart,
    direct,
    parked,
    jobFor,
    deliver,
    keysUnder,
    objectBytes,
    async close() {
      await simulator.close();
      await emulators.close();
    },
  };
}
