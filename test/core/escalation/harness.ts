import type { Observation, ObservationOf, ObservationType } from "@fleet-alerts/core";
import {
  AlertStore,
  deliverAlerts,
  handOn,
  newAlertRecord,
  RecordLedger,
  SnsAlertPublisher,
} from "@fleet-alerts/core/alerts";
import {
  AcknowledgementStore,
  type EscalationDependencies,
  type EscalationJob,
  EscalationStore,
  escalationJobSchema,
  runEscalation,
} from "@fleet-alerts/core/escalation";
import type { JobQueue, QueueMessage, RefusedMessage } from "@fleet-alerts/core/queue";
import { parseRules, type Rule } from "@fleet-alerts/core/rules";
import { startEmulators } from "../../support/emulators.js";
import { FakeJobQueue } from "../../support/fakes/queue.js";
import { FakeRouter } from "../../support/fakes/routing.js";
import { fakeSetAside } from "../../support/fakes/set-aside.js";
import { eventAt, fleetDevice, INCIDENT_AT_EVENT } from "../alerts/fixtures.js";

export const FIRED_AT_MS = Date.parse("2026-03-29T01:30:05.000Z");
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

export function ruleWith(escalate: unknown): Rule {
  const parsed = parseRules({
    rules: [{ id: "crash", events: ["GSensor"], severity: "critical", escalate }],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.rules[0] as Rule;
}

/** The business clock (`now`) and the wall clock claims are timed on; deployed, they move together. */
export interface TwoClocks {
  nowMs: number;
  wallMs: number;
}

/**
 * SQS on a virtual clock: a message becomes visible `delaySeconds` after it was sent, and `next`
 * moves the clock to the first visible one, so that delays are observed, never slept through. Both
 * clocks move by as much, as they do in a deployed stage.
 */
export class VirtualQueue implements JobQueue {
  readonly #waiting: { job: EscalationJob; visibleAtMs: number }[] = [];
  /** Every delay asked for, in seconds, in order. */
  readonly delays: number[] = [];
  /** Whether each delay was asked for on the wall clock (a claim's lease), in order. */
  readonly onWallClock: boolean[] = [];
  constructor(private readonly clock: TwoClocks) {}

  async send(messages: readonly QueueMessage[]): Promise<RefusedMessage[]> {
    for (const message of messages) {
      const delaySeconds = message.delaySeconds ?? 0;
      this.delays.push(delaySeconds);
      this.onWallClock.push(message.delayOnWallClock === true);
      const job = escalationJobSchema.parse(JSON.parse(message.body));
      this.#waiting.push({ job, visibleAtMs: this.clock.nowMs + delaySeconds * 1000 });
    }
    return [];
  }

  /** A message SQS gives back (a failed delivery's) after its visibility timeout. */
  redeliver(job: EscalationJob, afterMs: number): void {
    this.#waiting.push({ job, visibleAtMs: this.clock.nowMs + afterMs });
  }

  get size(): number {
    return this.#waiting.length;
  }

  next(): EscalationJob | undefined {
    this.#waiting.sort((a, b) => a.visibleAtMs - b.visibleAtMs);
    const first = this.#waiting.shift();
    if (first) {
      const passedMs = Math.max(0, first.visibleAtMs - this.clock.nowMs);
      this.clock.nowMs += passedMs;
      this.clock.wallMs += passedMs;
    }
    return first?.job;
  }
}

/** The emulators with an escalation topic (and a queue subscribed to it), the stores, a clock. */
export async function startEscalationHarness() {
  const emulators = await startEmulators();
  const { sns, documents } = emulators.clients;
  const table = { documents, tableName: emulators.tableName };
  const subscriber = await emulators.subscribeQueue(undefined, emulators.escalationTopicArn);
  return {
    emulators,
    alerts: new AlertStore(table),
    escalations: new EscalationStore(table),
    acknowledgements: new AcknowledgementStore(table),
    escalationPublisher: new SnsAlertPublisher(sns, emulators.escalationTopicArn, {
      attempts: 1,
      delayMs: 1,
    }),
    /** What the escalation topic's subscribers got (read and deleted). */
    sentEscalations: (atLeast = 0) => subscriber.read({ atLeast, waitMs: atLeast ? 3000 : 300 }),
  };
}
export type EscalationHarness = Awaited<ReturnType<typeof startEscalationHarness>>;

let serial = 5_000_000n;

/**
 * An alert of `rule` recorded and published at FIRED_AT_MS as the poller does it, its level-1 job
 * scheduled on a virtual queue; and what it takes to deliver its jobs.
 */
export async function firedAlert(harness: EscalationHarness, rule: Rule) {
  const clock: TwoClocks = { nowMs: FIRED_AT_MS, wallMs: Date.parse("2027-01-01T00:00:00Z") };
  const observations: Observation[] = [];
  const queue = new VirtualQueue(clock);
  const now = () => clock.nowMs;
  const observer = { observe: (observation: Observation) => void observations.push(observation) };
  serial += 1n;
  const event = eventAt("2026-03-29T01:30:00.000Z", { serialno: serial.toString() });
  await harness.alerts.record(
    newAlertRecord({
      account: "east",
      event,
      rule,
      status: "pending",
      suppressedBefore: 0,
      device: fleetDevice(),
      incident: INCIDENT_AT_EVENT,
      fleetTimeZone: "Europe/Berlin",
    }),
    now(),
  );
  const record = await harness.alerts.get("east", serial, rule.id);
  const deliveryDeps = {
    alerts: harness.alerts,
    publisher: new SnsAlertPublisher(harness.emulators.clients.sns, harness.emulators.topicArn),
    evidenceQueue: new FakeJobQueue(),
    escalationQueue: queue,
    router: new FakeRouter(),
    logger: silent,
    observer,
    now,
    setAside: fakeSetAside({ observer, logger: silent, now }).setAside,
  };
  const ledger = new RecordLedger(deliveryDeps.alerts, { now });
  const counts = { alertsPublished: 0, alertsFailed: 0, evidenceJobs: 0 };
  const delivered = await deliverAlerts(record ? [record] : [], deliveryDeps, counts, ledger);
  await handOn(delivered, deliveryDeps, counts, ledger);
  await harness.emulators.readInbox({ atLeast: 1 }); // the alert itself, not what these tests count
  const deps: EscalationDependencies = {
    escalations: harness.escalations,
    escalationPublisher: harness.escalationPublisher,
    escalationQueue: queue,
    observer,
    now,
    wallClock: () => clock.wallMs,
  };
  const key = { account: "east", serialno: serial, ruleId: rule.id };
  return {
    key,
    alert: { ...key, alertId: `east:${serial}:${rule.id}`, deviceid: event.deviceid },
    clock,
    queue,
    deps,
    ackDeps: { acknowledgements: harness.acknowledgements, observer },
    observations,
    of: <T extends ObservationType>(type: T) =>
      observations.filter((observation): observation is ObservationOf<T> => observation.type === type),
    /** Delivers every job as SQS would, each `times` times (concurrently if asked), until none is left. */
    async drain(options: { times?: number; concurrently?: boolean } = {}) {
      const outcomes: string[] = [];
      for (let job = queue.next(); job; job = queue.next()) {
        const runs = Array.from({ length: options.times ?? 1 }, () => job as EscalationJob);
        if (options.concurrently) {
          outcomes.push(...(await Promise.all(runs.map((copy) => runEscalation(copy, deps)))));
        } else {
          for (const copy of runs) outcomes.push(await runEscalation(copy, deps));
        }
      }
      return outcomes;
    },
  };
}
