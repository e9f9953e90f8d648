import { mkdir, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { DeleteMessageBatchCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { CursorStore } from "@fleet-alerts/core/cursor";
import { groupsFileSchema } from "@fleet-alerts/core/routing";
import type { Simulator } from "@fleet-alerts/simulator";
import { parseNotification } from "../../packages/local/src/emulators.js";
import {
  type DeployedSchedule,
  type LocalPipeline,
  type PollInvocation,
  startLocalPipeline,
} from "../../packages/local/src/pipeline.js";
import type { LocalLine } from "../../packages/local/src/report.js";

export interface Percentiles {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface LatencyFigures extends Percentiles {
  /** Events injected. */
  events: number;
  schedule: LatencySchedule;
  targetMs: number;
  /** p95 within the target, and no alert lost. */
  met: boolean;
  alertsMatched: number;
  /** Injected events whose alert never arrived. */
  lost: number;
  /** Alerts received more than once. */
  duplicates: number;
  /** Each receipt of an alert after its first. */
  duplicateDeliveries: DuplicateDelivery[];
  /** Alerts for events that were not injected (the rule should make these impossible). */
  unexpected: number;
  /**
   * Where the time goes: from the injection to the poll's event query that read the event, from
   * that query to the alert entering the subscriber queue (rules, DynamoDB, SNS), and from there
   * to the receive that returned it.
   */
  stages: { untilRead: Percentiles; readToQueued: Percentiles; queuedToReceived: Percentiles };
  /** The poll handler's invocations after the first (which only sets the cursor). */
  invocations: InvocationFigures;
  /** Problems the pipeline reported meanwhile. */
  problems: string[];
  /** The CPU this process used over the measurement, in CPUs (modes side by side share the machine's). */
  processCpus: number;
}

/**
 * How the poller runs: as the local mode runs it (one poll per run, a run every few seconds), or
 * as a deployed stage's schedule does (pipeline.ts's DeployedSchedule).
 */
export type LatencySchedule =
  | { local: true; pollEverySeconds: number }
  | ({ local: false } & DeployedSchedule);

export interface LatencyOptions {
  schedule: LatencySchedule;
  targetMs: number;
  /** Events are injected at this mean rate, at random moments (Poisson), for this long. */
  eventsPerSecond: number;
  injectSeconds: number;
  /** Added to every device-cloud response (the simulator's latency fault); 0 on loopback. */
  deviceCloudRoundTripMs: number;
  /** The simulator's seed: pipelines run side by side each with a fleet of their own. */
  seed: number;
  /** Runs the poll handler at this memory's CPU share (latency-process.ts); none: at this machine's. */
  pollerMemoryMb?: number;
}

export interface InvocationFigures {
  count: number;
  /** Of them, the watchdog's (one a minute); the others are the chains' timers. */
  watchdog: number;
  perMinute: number;
  /** Median wall time (what Lambda bills, on loopback AWS): of all, of those that read no event, of those that read some. */
  durationMs: number;
  emptyDurationMs: number;
  withEventsDurationMs: number;
}

interface TimedInvocation extends PollInvocation {
  endedMs: number;
}

const RULE_ID = "bench-latency";
// The spec allows codes outside its table; the simulator emits none of this one, so only the
// injected events alert, and with no cooldown each of them exactly once.
const EVENT_CODE = 200;
// How long after the poll that should have read the last injection an alert may still arrive
// before it counts as lost.
const LOST_AFTER_MS = 10_000;

/**
 * An alert received again: the same subscriber-queue message is the queue's redelivery; another
 * message, a second publish.
 */
export interface DuplicateDelivery {
  serialno: string;
  messageId: string | undefined;
  firstMessageId: string | undefined;
  /** SentTimestamps: when SNS put each into the subscriber queue. */
  sentMs: number;
  firstSentMs: number | undefined;
  receivedMs: number;
}

interface Delivery {
  injectedMs: number;
  /** SentTimestamp: when SNS put the alert into the subscriber queue. */
  queuedMs?: number;
  receivedMs?: number;
  /** The subscriber queue's message that brought it first. */
  messageId?: string;
}

/**
 * Event-to-alert latency in local mode: the real pipeline (simulator at real-time speed, dynalite
 * and fauxqs in-process, the real handlers, the poller on `schedule`), events injected into the
 * simulator at random moments (Poisson, so not in step with the polls), and their alerts read from
 * a queue subscribed to the alerts topic. Latency is from the injection (the moment the simulator
 * logs the event) to the receive that returns the alert. Times are wall-clock (Date.now) because
 * the stage stamps (request log, SentTimestamp) are.
 */
export async function measureLatency(options: LatencyOptions): Promise<LatencyFigures> {
  const { schedule } = options;
  const [cpuAtStart, startedMs] = [process.cpuUsage(), Date.now()];
  // The longest a poll can be away: what an event may wait, and a duplicate take to show.
  const maxGapMs = Math.min(60, schedule.pollEverySeconds) * 1000;
  await mkdir(".build", { recursive: true });
  // One file per pipeline: pipelines run side by side, and each reads its own at its first poll.
  const rulesFile = `${process.cwd()}/.build/bench-latency-rules-${options.seed}.json`;
  await writeFile(
    rulesFile,
    JSON.stringify({
      rules: [{ id: RULE_ID, events: [EVENT_CODE], severity: "info", cooldownSeconds: 0 }],
    }),
  );

  const problems: string[] = [];
  const summaries: Array<{ atMs: number; eventsRead: number }> = [];
  const invocations: TimedInvocation[] = [];
  const show = (line: LocalLine) => {
    if (line.type === "poll-summary") summaries.push({ atMs: Date.now(), eventsRead: line.eventsRead });
    if (line.type === "problem") problems.push(line.message);
  };
  const pipeline = await startLocalPipeline(
    {
      // One fleet: the latency of one account's events, on its own simulator.
      accounts: ["north"],
      devices: 20,
      seed: options.seed,
      speed: 1,
      pollEverySeconds: schedule.pollEverySeconds,
      ...(!schedule.local && { deployedSchedule: schedule }),
      onPollInvocation: (invocation) => invocations.push({ ...invocation, endedMs: Date.now() }),
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
    if (options.deviceCloudRoundTripMs > 0)
      simulator.control.faults.add({
        endpoint: "*",
        kind: "latency",
        latencyMs: options.deviceCloudRoundTripMs,
      });
    const queries = () =>
      simulator.control.requests
        .filter((request) => request.endpoint === "eventquery")
        .map((request) => request.at.getTime());
    const { sqs } = pipeline.emulators.clients;
    // A queue of our own on the alerts topic, as a subscriber's.
    const { url } = await pipeline.emulators.subscribeQueue();

    const deliveries = new Map<string, Delivery>(); // by serialno
    let duplicates = 0;
    const duplicateDeliveries: DuplicateDelivery[] = [];
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
          else if (delivery.receivedMs !== undefined) {
            duplicates++;
            duplicateDeliveries.push({
              serialno: String(body.serialno),
              messageId: message.MessageId,
              firstMessageId: delivery.messageId,
              sentMs: Number(message.Attributes?.SentTimestamp),
              firstSentMs: delivery.queuedMs,
              receivedMs,
            });
          } else {
            delivery.messageId = message.MessageId;
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
    // It reads the events once (newestSerial); every later poll reads them after the cursor.
    const cursorSetBy = Date.now() + 15_000 + options.deviceCloudRoundTripMs * 4;
    while (queries().length === 0 || !(await cursorIsSet(pipeline))) {
      if (Date.now() >= cursorSetBy)
        throw new Error(
          `the first poll did not set the cursor: ${problems.join("; ") || "no problem reported"}`,
        );
      await sleep(50);
    }

    const deviceids = simulator.control.devices().map((device) => device.deviceid);
    for (const injectUntil = Date.now() + options.injectSeconds * 1000; ; ) {
      await sleep((-Math.log(1 - Math.random()) * 1000) / options.eventsPerSecond);
      if (Date.now() >= injectUntil) break;
      const deviceid = deviceids[Math.floor(Math.random() * deviceids.length)];
      const event = simulator.control.injectEvent({ appdevid: EVENT_CODE, deviceid });
      deliveries.set(event.serialno.toString(), { injectedMs: Date.now() });
    }
    const pending = () => [...deliveries.values()].some((delivery) => delivery.receivedMs === undefined);
    const lostAfter = Date.now() + maxGapMs + LOST_AFTER_MS;
    while (pending() && Date.now() < lostAfter) await sleep(50);
    // A duplicate would come from a later poll republishing: let one more poll start, and finish.
    const lastReceivedMs = Math.max(...[...deliveries.values()].map((delivery) => delivery.receivedMs ?? 0));
    while (!queries().some((at) => at > lastReceivedMs) && Date.now() < lastReceivedMs + maxGapMs + 1000)
      await sleep(50);
    await sleep(2_000 + 4 * options.deviceCloudRoundTripMs);
    reading = false;
    await reader;

    // The event query that read an event is the first to arrive after its injection: a poll keeps
    // querying until a page comes back empty, so one injected mid-poll is read by the next page.
    const queried = queries();
    const delivered = [...deliveries.values()].filter(
      (delivery): delivery is Required<Delivery> => delivery.receivedMs !== undefined,
    );
    const readAt = (delivery: Delivery) => queried.find((at) => at >= delivery.injectedMs) ?? Number.NaN;
    const latency = percentiles(delivered.map((delivery) => delivery.receivedMs - delivery.injectedMs));
    const lost = deliveries.size - delivered.length;
    await writeFile(
      `.build/latency-raw-${options.seed}.json`,
      JSON.stringify({
        delivered: delivered.map((d) => ({ ...d, readAt: readAt(d) })),
        duplicateDeliveries,
        invocations,
        summaries,
        queried,
      }),
    );
    const { targetMs } = options;
    return {
      events: deliveries.size,
      schedule,
      ...latency,
      targetMs,
      // A lost alert has an unbounded latency.
      met: lost === 0 && latency.p95Ms <= targetMs,
      alertsMatched: delivered.length,
      lost,
      duplicates,
      duplicateDeliveries,
      unexpected,
      stages: {
        untilRead: percentiles(delivered.map((delivery) => readAt(delivery) - delivery.injectedMs)),
        readToQueued: percentiles(delivered.map((delivery) => delivery.queuedMs - readAt(delivery))),
        queuedToReceived: percentiles(delivered.map((delivery) => delivery.receivedMs - delivery.queuedMs)),
      },
      invocations: invocationFigures(invocations, summaries),
      problems,
      processCpus: cpusSince(cpuAtStart, startedMs),
    };
  } finally {
    await pipeline.stop();
  }
}

/** Whether the first poll has stored the account's cursor (it starts at the newest event). */
async function cursorIsSet(pipeline: LocalPipeline): Promise<boolean> {
  const cursors = new CursorStore({
    documents: pipeline.emulators.clients.documents,
    tableName: pipeline.emulators.tableName,
  });
  return (await cursors.read("north")) !== undefined;
}

/** The invocations after the first; each read events if a summary it reported did. */
function invocationFigures(
  all: readonly TimedInvocation[],
  summaries: ReadonlyArray<{ atMs: number; eventsRead: number }>,
): InvocationFigures {
  const invocations = all.slice(1);
  const readEvents = (invocation: TimedInvocation) =>
    summaries.some(
      (summary) =>
        summary.eventsRead > 0 &&
        summary.atMs >= invocation.endedMs - invocation.durationMs &&
        summary.atMs <= invocation.endedMs,
    );
  const medianMs = (chosen: readonly TimedInvocation[]) =>
    Math.round(median(chosen.map((invocation) => invocation.durationMs)));
  const spanMinutes = ((invocations.at(-1)?.endedMs ?? 0) - (invocations[0]?.endedMs ?? 0)) / 60_000;
  return {
    count: invocations.length,
    watchdog: invocations.filter((invocation) => invocation.trigger === "watchdog").length,
    perMinute: spanMinutes > 0 ? Math.round(((invocations.length - 1) / spanMinutes) * 10) / 10 : 0,
    durationMs: medianMs(invocations),
    emptyDurationMs: medianMs(invocations.filter((invocation) => !readEvents(invocation))),
    withEventsDurationMs: medianMs(invocations.filter(readEvents)),
  };
}

function cpusSince(start: NodeJS.CpuUsage, startedMs: number): number {
  const { user, system } = process.cpuUsage(start);
  return Math.round(((user + system) / 1000 / (Date.now() - startedMs)) * 100) / 100;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Nearest-rank percentiles, rounded to the millisecond (NaN when there are no values). */
function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (fraction: number) =>
    Math.round(sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN);
  return { p50Ms: rank(0.5), p95Ms: rank(0.95), maxMs: rank(1) };
}
