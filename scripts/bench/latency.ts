import { mkdir, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { DeleteMessageBatchCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { groupsFileSchema } from "@fleet-alerts/core/routing";
import type { Simulator } from "@fleet-alerts/simulator";
import { parseNotification } from "../../packages/local/src/emulators.js";
import { startLocalPipeline } from "../../packages/local/src/pipeline.js";
import type { LocalLine } from "../../packages/local/src/report.js";

export interface Percentiles {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface LatencyFigures extends Percentiles {
  /** Events injected. */
  events: number;
  pollIntervalSeconds: number;
  /** The poll interval plus 1 s. */
  targetMs: number;
  /** p95 within the target, and no alert lost. */
  met: boolean;
  alertsMatched: number;
  /** Injected events whose alert never arrived. */
  lost: number;
  /** Alerts received more than once. */
  duplicates: number;
  /** Alerts for events that were not injected (the rule should make these impossible). */
  unexpected: number;
  /**
   * Where the time goes: from the injection to the poll's event query that read the event, from
   * that query to the alert entering the subscriber queue (rules, DynamoDB, SNS), and from there
   * to the receive that returned it.
   */
  stages: { untilRead: Percentiles; readToQueued: Percentiles; queuedToReceived: Percentiles };
  /** Problems the pipeline reported meanwhile. */
  problems: string[];
}

const RULE_ID = "bench-latency";
// The spec allows codes outside its table; the simulator emits none of this one, so only the
// injected events alert, and with no cooldown each of them exactly once.
const EVENT_CODE = 200;
// Poisson arrivals: random moments relative to the poll timer (no phase lock), several events per
// poll as on a busy fleet; 200 events take about 40 s.
const EVENTS_PER_SECOND = 5;
// `npm start`'s default --poll-every.
const DEFAULT_POLL_EVERY_SECONDS = 2;
// How long after the last injection an alert may still arrive before it counts as lost.
const LOST_AFTER_MS = 10_000;

interface Delivery {
  injectedMs: number;
  /** SentTimestamp: when SNS put the alert into the subscriber queue. */
  queuedMs?: number;
  receivedMs?: number;
}

/**
 * Event-to-alert latency in local mode: the real pipeline (simulator at real-time speed, dynalite
 * and fauxqs in-process, the real handlers, a poll every `pollEverySeconds`), events injected into
 * the simulator, and their alerts read from a queue subscribed to the alerts topic. Latency is from
 * the injection (the moment the simulator logs the event) to the receive that returns the alert.
 * Times are wall-clock (Date.now) because the stage stamps (request log, SentTimestamp) are.
 */
export async function measureLatency(
  options: { events?: number; pollEverySeconds?: number } = {},
): Promise<LatencyFigures> {
  const { events = 200, pollEverySeconds = DEFAULT_POLL_EVERY_SECONDS } = options;
  await mkdir(".build", { recursive: true });
  const rulesFile = `${process.cwd()}/.build/bench-latency-rules.json`;
  await writeFile(
    rulesFile,
    JSON.stringify({
      rules: [{ id: RULE_ID, events: [EVENT_CODE], severity: "info", cooldownSeconds: 0 }],
    }),
  );

  const problems: string[] = [];
  let polledOnce: () => void = () => undefined;
  const firstPoll = new Promise<void>((resolve) => {
    polledOnce = resolve;
  });
  const show = (line: LocalLine) => {
    if (line.type === "poll-summary") polledOnce();
    if (line.type === "problem") problems.push(line.message);
  };
  const pipeline = await startLocalPipeline(
    {
      // One fleet: the latency of one account's events, on its own simulator.
      accounts: ["north"],
      devices: 20,
      seed: 1,
      speed: 1,
      pollEverySeconds,
      evidenceDir: ".build/bench-evidence",
      rulesFile,
      fleetTimeZone: "UTC",
      // One group hearing of the bench's one info rule (the local file's night shift and ops groups
      // select warnings and criticals only, and a group that selects nothing is refused).
      groups: groupsFileSchema.parse({ groups: [{ name: "bench", email: ["bench@example.test"] }] }),
    },
    show,
  );
  try {
    // Given no device cloud, the pipeline runs the simulator.
    const simulator = pipeline.simulators.get("north") as Simulator;
    const { sqs } = pipeline.emulators.clients;
    // A queue of our own on the alerts topic, as a subscriber's.
    const { url } = await pipeline.emulators.subscribeQueue();

    const deliveries = new Map<string, Delivery>(); // by serialno
    let duplicates = 0;
    let unexpected = 0;
    let reading = true;
    // Long polls return as soon as a message arrives (fauxqs wakes waiting receives), so the
    // 1 s wait adds no latency; it only bounds how long stopping takes.
    const reader = (async () => {
      while (reading) {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: url,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ["SentTimestamp"],
          }),
        );
        const receivedMs = Date.now();
        if (Messages.length === 0) continue;
        for (const message of Messages) {
          const notification = parseNotification(message.Body);
          const body = JSON.parse(notification.bodies?.default ?? notification.raw) as { serialno?: string };
          const delivery = deliveries.get(String(body.serialno));
          if (!delivery) unexpected++;
          else if (delivery.receivedMs !== undefined) duplicates++;
          else {
            delivery.receivedMs = receivedMs;
            delivery.queuedMs = Number(message.Attributes?.SentTimestamp);
          }
        }
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: url,
            Entries: Messages.map((message, index) => ({
              Id: `d${index}`,
              ReceiptHandle: message.ReceiptHandle,
            })),
          }),
        );
      }
    })();
    // Its failure surfaces where it is awaited; until then it must not count as unhandled.
    reader.catch(() => undefined);

    // The first poll only sets the cursor at the newest event: events logged before it never alert.
    await Promise.race([
      firstPoll,
      sleep(15_000, undefined, { ref: false }).then(() => {
        throw new Error(`the first poll did not finish: ${problems.join("; ") || "no problem reported"}`);
      }),
    ]);

    const deviceids = simulator.control.devices().map((device) => device.deviceid);
    for (let index = 0; index < events; index++) {
      await sleep((-Math.log(1 - Math.random()) * 1000) / EVENTS_PER_SECOND);
      const deviceid = deviceids[Math.floor(Math.random() * deviceids.length)];
      const event = simulator.control.injectEvent({ appdevid: EVENT_CODE, deviceid });
      deliveries.set(event.serialno.toString(), { injectedMs: Date.now() });
    }
    const pending = () => [...deliveries.values()].some((delivery) => delivery.receivedMs === undefined);
    for (const deadline = Date.now() + pollEverySeconds * 1000 + LOST_AFTER_MS; pending(); await sleep(50)) {
      if (Date.now() >= deadline) break;
    }
    // A duplicate would come from a later poll republishing: give it one more poll to show.
    await sleep(pollEverySeconds * 1000);
    reading = false;
    await reader;

    // The event query that read an event is the first to arrive after its injection: a poll keeps
    // querying until a page comes back empty, so one injected mid-poll is read by the next page.
    const queries = simulator.control.requests
      .filter((request) => request.endpoint === "eventquery")
      .map((request) => request.at.getTime());
    const delivered = [...deliveries.values()].filter(
      (delivery): delivery is Required<Delivery> => delivery.receivedMs !== undefined,
    );
    const readAt = (delivery: Delivery) => queries.find((at) => at >= delivery.injectedMs) ?? Number.NaN;
    const latency = percentiles(delivered.map((delivery) => delivery.receivedMs - delivery.injectedMs));
    const lost = deliveries.size - delivered.length;
    const targetMs = pollEverySeconds * 1000 + 1000;
    return {
      events: deliveries.size,
      pollIntervalSeconds: pollEverySeconds,
      ...latency,
      targetMs,
      // A lost alert has an unbounded latency.
      met: lost === 0 && latency.p95Ms <= targetMs,
      alertsMatched: delivered.length,
      lost,
      duplicates,
      unexpected,
      stages: {
        untilRead: percentiles(delivered.map((delivery) => readAt(delivery) - delivery.injectedMs)),
        readToQueued: percentiles(delivered.map((delivery) => delivery.queuedMs - readAt(delivery))),
        queuedToReceived: percentiles(delivered.map((delivery) => delivery.receivedMs - delivery.queuedMs)),
      },
      problems,
    };
  } finally {
    await pipeline.stop();
  }
}

/** Nearest-rank percentiles, rounded to the millisecond (NaN when there are no values). */
function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (fraction: number) =>
    Math.round(sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN);
  return { p50Ms: rank(0.5), p95Ms: rank(0.95), maxMs: rank(1) };
}
