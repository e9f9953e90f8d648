import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import type { ObservationOf, Observer, StructuredLogger } from "@fleet-alerts/core";
import { createConfirmHandler } from "@fleet-alerts/functions/confirm";
import { createEvidenceHandler } from "@fleet-alerts/functions/evidence";
import { createPollHandler } from "@fleet-alerts/functions/poll";
import { type Simulator, start as startSimulator } from "@fleet-alerts/simulator";
import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { type Emulators, parseNotification, startEmulators } from "./emulators.js";
import { sqsEvent } from "./sqs-event.js";

export interface LocalOptions {
  devices: number;
  seed: number;
  /** Simulated seconds per real second. */
  speed: number;
  pollEverySeconds: number;
  evidenceDir: string;
  rulesFile?: string;
  fleetTimeZone: string;
  /** A real device cloud instead of the simulator (read-only: the pipeline only reads from it). */
  deviceCloud?: { baseUrl: string; username: string; password: string };
}

/** What the local mode shows, as it happens. */
export type LocalEvent =
  | {
      kind: "alert";
      severity: string;
      rule: string;
      serialno: string;
      deviceid: string;
      vehicle: string;
      driver: string;
      place: string;
      sms: string;
    }
  | {
      kind:
        | "suppressed"
        | "offline-scheduled"
        | "offline-confirmed"
        | "offline-suppressed"
        | "offline-cancelled";
      serialno: string;
      deviceid: string;
      rule: string;
    }
  | { kind: "evidence"; file: string; bytes: number; sha256: string }
  | { kind: "evidence-progress"; key: string; bytes: number; totalBytes?: number }
  | { kind: "evidence-unavailable"; serialno: string; deviceid: string }
  | {
      kind: "status";
      eventsRead: number;
      alerts: number;
      evidencePending: number;
      evidenceStored: number;
      lagSeconds: number;
    }
  | { kind: "problem"; message: string };

export interface LocalSummary {
  eventsRead: number;
  alerts: number;
  suppressed: number;
  evidenceStored: number;
  problems: string[];
}

export interface LocalPipeline {
  simulator?: Simulator;
  emulators: Emulators;
  /** Stops every loop, then the simulator and the emulators; resolves with the totals. */
  stop(): Promise<LocalSummary>;
}

// A Lambda context is not needed by the handlers beyond this.
const CONTEXT = { getRemainingTimeInMillis: () => 30_000 } as Context;

/**
 * The whole pipeline on this machine: the device-cloud simulator (or a real device cloud),
 * dynalite and fauxqs, and the real poll, confirm and evidence handlers, with SQS delivering to
 * them as Lambda's event source mappings would. Stored evidence is copied to `evidenceDir`.
 */
export async function startLocalPipeline(
  options: LocalOptions,
  show: (event: LocalEvent) => void,
): Promise<LocalPipeline> {
  const emulators = await startEmulators();
  const simulator = options.deviceCloud
    ? undefined
    : await startSimulator({
        seed: options.seed,
        devices: options.devices,
        historyHours: 1,
        clock: { start: new Date(), speed: options.speed },
        // Small clips: a minute of video is about 1 MB.
        bitrateBitsPerSecond: 128_000,
      });
  const cloud = options.deviceCloud ?? {
    baseUrl: simulator?.url as string,
    username: "demo",
    password: "demo",
  };
  const env = {
    ...emulators.env(),
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify([
      {
        id: "local",
        baseUrl: cloud.baseUrl,
        username: cloud.username,
        ...(options.rulesFile && { rulesFile: options.rulesFile }),
      },
    ]),
    DEVICE_CLOUD_PASSWORD: cloud.password,
    FLEET_TIME_ZONE: options.fleetTimeZone,
    EVIDENCE_GIVE_UP_HOURS: "1",
  };
  // The simulator's clock runs `speed` times faster: the handlers live by it, and SQS delays shrink.
  const clock = simulator
    ? { now: () => simulator.control.now().getTime(), timeScale: options.speed }
    : { now: Date.now, timeScale: 1 };
  const totals = {
    eventsRead: 0,
    alerts: 0,
    suppressed: 0,
    evidenceStored: 0,
    evidencePending: 0,
    problems: [] as string[],
  };
  const overrides = {
    logger: problemLogger(show, totals),
    observer: displayObserver(show, totals, problemLogger(show, totals)),
    ...clock,
    evidenceProgress: throttled((download) => show({ kind: "evidence-progress", ...download })),
  };
  const poll = createPollHandler(env, overrides);
  const confirm = createConfirmHandler(env, overrides);
  const evidence = createEvidenceHandler(env, overrides);

  let running = true;
  const loops = [
    loop(async () => {
      const started = Date.now();
      for (const summary of await poll({}, CONTEXT)) {
        totals.eventsRead += summary.eventsRead;
        totals.evidencePending += summary.evidenceJobs;
        show({ kind: "status", ...totals, lagSeconds: summary.lagSeconds });
      }
      await sleep(Math.max(0, options.pollEverySeconds * 1000 - (Date.now() - started)));
    }),
    loop(() => deliver(emulators, emulators.queues.confirm, confirm)),
    loop(() => deliver(emulators, emulators.queues.evidence, evidence)),
    loop(async () => {
      for (const message of await receive(emulators, emulators.queues.inbox)) {
        await showNotification(emulators, options.evidenceDir, message, show, totals);
      }
    }),
  ];

  function loop(step: () => Promise<unknown>): Promise<void> {
    return (async () => {
      while (running) {
        try {
          await step();
        } catch (error) {
          if (!running) return;
          const message = (error as Error).message;
          totals.problems.push(message);
          show({ kind: "problem", message });
          await sleep(500);
        }
      }
    })();
  }

  return {
    ...(simulator && { simulator }),
    emulators,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      await simulator?.close();
      await emulators.close();
      const { eventsRead, alerts, suppressed, evidenceStored, problems } = totals;
      return { eventsRead, alerts, suppressed, evidenceStored, problems };
    },
  };
}

/** At most one progress report per clip every quarter second, and always the last one. */
function throttled(report: (download: { key: string; bytes: number; totalBytes?: number }) => void) {
  const last = new Map<string, number>();
  return (download: { key: string; bytes: number; totalBytes?: number }) => {
    const now = Date.now();
    const finished = download.totalBytes !== undefined && download.bytes >= download.totalBytes;
    if (!finished && now - (last.get(download.key) ?? 0) < 250) return;
    last.set(download.key, now);
    report(download);
  };
}

async function receive(emulators: Emulators, queueUrl: string): Promise<Message[]> {
  const { Messages } = await emulators.clients.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 1,
      MessageSystemAttributeNames: ["ApproximateReceiveCount"],
    }),
  );
  return Messages ?? [];
}

/** What an SQS event source mapping does: deliver a batch, then delete the messages that succeeded. */
async function deliver(
  emulators: Emulators,
  queueUrl: string,
  handler: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>,
) {
  const messages = await receive(emulators, queueUrl);
  if (messages.length === 0) return;
  const failed = new Set(
    (await handler(sqsEvent(messages), CONTEXT)).batchItemFailures.map((failure) => failure.itemIdentifier),
  );
  const done = messages.filter((message) => !failed.has(message.MessageId as string));
  if (done.length === 0) return;
  await emulators.clients.sqs.send(
    new DeleteMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: done.map((message, index) => ({ Id: `d${index}`, ReceiptHandle: message.ReceiptHandle })),
    }),
  );
}

/** An SNS message as a subscriber gets it: shown, and stored evidence copied to the evidence folder. */
async function showNotification(
  emulators: Emulators,
  evidenceDir: string,
  message: Message,
  show: (event: LocalEvent) => void,
  totals: { alerts: number; evidenceStored: number; evidencePending: number },
) {
  const notification = parseNotification(message.Body);
  const body = JSON.parse(notification.bodies?.default ?? notification.raw) as Record<string, unknown>;
  if (notification.attributes.kind?.value === "alert") {
    totals.alerts++;
    const position = body.position as { lat?: number; lng?: number } | null | undefined;
    show({
      kind: "alert",
      severity: String(body.severity),
      rule: String(body.ruleId),
      serialno: String(body.serialno),
      deviceid: String(body.deviceid),
      vehicle: String(body.vehicleid || "unknown vehicle"),
      driver: String(body.drivername || "no driver"),
      place:
        position?.lat !== undefined && position.lng !== undefined
          ? `${position.lat.toFixed(4)},${position.lng.toFixed(4)}`
          : "position unknown",
      sms: notification.bodies?.sms ?? "",
    });
  } else if (body.status === "stored") {
    totals.evidenceStored++;
    totals.evidencePending = Math.max(0, totals.evidencePending - 1);
    const keys = [String(body.manifestKey), ...(body.clips as { key: string }[]).map((clip) => clip.key)];
    for (const key of keys) {
      const object = await emulators.clients.s3.send(
        new GetObjectCommand({ Bucket: String(body.bucket), Key: key }),
      );
      const bytes = await (
        object.Body as { transformToByteArray(): Promise<Uint8Array> }
      ).transformToByteArray();
      // The folder stands for the bucket's evidence/ prefix: keep the rest of the key.
      const file = join(evidenceDir, key.replace(/^evidence\//, ""));
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, bytes);
      const clip = (body.clips as { key: string; bytes: number; sha256: string }[]).find(
        (candidate) => candidate.key === key,
      );
      if (clip) show({ kind: "evidence", file, bytes: clip.bytes, sha256: clip.sha256 });
    }
  } else if (body.status === "unavailable") {
    totals.evidencePending = Math.max(0, totals.evidencePending - 1);
    show({ kind: "evidence-unavailable", serialno: String(body.serialno), deviceid: String(body.deviceid) });
  }
  await emulators.clients.sqs.send(
    new DeleteMessageBatchCommand({
      QueueUrl: emulators.queues.inbox,
      Entries: [{ Id: "n", ReceiptHandle: message.ReceiptHandle }],
    }),
  );
}

/** What the handlers observed that matters to someone watching, turned into display events. */
function displayObserver(
  show: (event: LocalEvent) => void,
  totals: { suppressed: number },
  problems: StructuredLogger,
): Observer {
  const shown = {
    "alert-suppressed": "suppressed",
    "offline-scheduled": "offline-scheduled",
    "offline-confirmed": "offline-confirmed",
    "offline-suppressed": "offline-suppressed",
    "offline-cancelled": "offline-cancelled",
  } as const;
  return {
    observe(observation) {
      if (observation.type === "alert-failed" || observation.type === "evidence-failed") {
        problems.error(observation.type, { reason: observation.reason });
        return;
      }
      if (!(observation.type in shown)) return;
      const { serialno, deviceid, rule } = observation as ObservationOf<keyof typeof shown>;
      if (observation.type === "alert-suppressed") totals.suppressed++;
      show({ kind: shown[observation.type as keyof typeof shown], serialno, deviceid, rule });
    },
  };
}

/** Errors the handlers log are the problems the live view lists. */
function problemLogger(show: (event: LocalEvent) => void, totals: { problems: string[] }): StructuredLogger {
  return {
    info: () => undefined,
    warn: () => undefined,
    error: (message, attributes) => {
      const detail = `${message}${attributes.error ? `: ${String(attributes.error)}` : attributes.reason ? `: ${String(attributes.reason)}` : ""}`;
      totals.problems.push(detail);
      show({ kind: "problem", message: detail });
    },
  };
}
