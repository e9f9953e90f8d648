import { randomUUID } from "node:crypto";
import { deliverAlerts, queueEvidence } from "../alerts/delivery.js";
import { newAlertRecord } from "../alerts/new-record.js";
import type { AlertPublisher, AlertRecords } from "../alerts/ports.js";
import { alertIdOf, type NewAlertRecord } from "../alerts/record.js";
import { chunked } from "../chunked.js";
import type { AccountLease, Cursors } from "../cursor/ports.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import type { StructuredLogger } from "../logging.js";
import type { ObservationOf, Observer } from "../observer.js";
import type { OfflineCheckJob } from "../offline/check.js";
import type { OfflineChecks } from "../offline/ports.js";
import type { JobQueue } from "../queue/ports.js";
import { type Decision, evaluateEvent, type RuleState } from "../rules/evaluator.js";
import type { Rule } from "../rules/schema.js";
import { maxSerial, orderAfter } from "./event-order.js";
import { newestSerial } from "./newest-serial.js";
import type { RejectedEvents, RuleStateChange, RuleStateField, RuleStates } from "./ports.js";
import { stateKey } from "./state-key.js";

/** The step boundaries of a chunk, in order: where a crash can happen and a replay must recover. */
export type PollStep =
  | "alerts-recorded"
  | "alerts-published"
  | "side-effects-sent"
  | "states-saved"
  | "cursor-advanced";

export interface PollerDependencies {
  client: DeviceCloud;
  cursors: Cursors;
  lock: AccountLease;
  alerts: AlertRecords;
  states: RuleStates;
  offlineChecks: OfflineChecks;
  rejected: RejectedEvents;
  publisher: AlertPublisher;
  evidenceQueue: JobQueue;
  confirmQueue: JobQueue;
  logger: StructuredLogger;
  /** Told each decision and outcome (alerts, suppressions, Offline checks...). */
  observer: Observer;
  /** The business clock: event ages, Offline due times, record timestamps. */
  now: () => number;
  /** The wall clock the Lambda deadline is measured on (Date.now); apart from `now`, which may be simulated. */
  wallClock?: () => number;
  /** Called at each step boundary; tests throw from it to simulate a crash there. */
  checkpoint?: (step: PollStep) => void;
}

export interface AccountSettings {
  account: string;
  rules: readonly Rule[];
  fleetTimeZone: string;
  /** Where a first run starts instead of the newest event. */
  startSerialno?: bigint;
}

/** One account's figures for one run: what the poll-summary observation reports. */
export type PollSummary = Omit<ObservationOf<"poll-summary">, "type">;

// Events are handled, and the cursor checkpointed, in chunks of this many: bounded work per step.
const CHUNK_SIZE = 100;

/**
 * One poll of one account: read the events after the cursor until caught up or the deadline,
 * and for each chunk, in this order: record alerts, publish the pending ones, send evidence jobs
 * and Offline checks, save rule states, move the cursor. A crash anywhere replays from the last
 * cursor, and every step is idempotent, so nothing is lost and nothing is published twice.
 */
export async function pollAccount(
  settings: AccountSettings,
  deps: PollerDependencies,
  deadlineMs: number,
): Promise<PollSummary> {
  const summary: PollSummary = {
    account: settings.account,
    outcome: "caught-up",
    eventsRead: 0,
    alertsPublished: 0,
    alertsFailed: 0,
    suppressed: 0,
    stale: 0,
    rejected: 0,
    offlineChecks: 0,
    offlineCancelled: 0,
    evidenceJobs: 0,
    lagSeconds: 0,
  };
  const owner = randomUUID();
  if (!(await deps.lock.acquire(settings.account, owner, deps.now()))) {
    deps.logger.info("another poller holds this account; skipping", { account: settings.account });
    return { ...summary, outcome: "locked" };
  }
  try {
    return await new AccountPoll(settings, deps, deadlineMs, owner, summary).run();
  } finally {
    await deps.lock.release(settings.account, owner);
  }
}

class AccountPoll {
  #cursor: bigint | undefined;
  #states = new Map<string, RuleState>();
  #fleet = new Map<string, FleetDevice>();

  constructor(
    private readonly settings: AccountSettings,
    private readonly deps: PollerDependencies,
    private readonly deadlineMs: number,
    private readonly owner: string,
    private readonly summary: PollSummary,
  ) {}

  async run(): Promise<PollSummary> {
    const { account } = this.settings;
    const { deps } = this;
    this.#cursor = await deps.cursors.read(account);
    if (this.#cursor === undefined) return this.#start();
    this.#states = await deps.states.loadAll(account);
    this.#fleet = await this.#loadFleet();
    for (;;) {
      if (this.#pastDeadline()) return this.#stop("deadline");
      const cursor: bigint = this.#cursor;
      const page = await deps.client.queryEvents({ afterSerialno: cursor });
      const events = orderAfter(page.events, cursor);
      const rejected = page.rejected.filter(
        (event) => event.serialno === undefined || event.serialno > cursor,
      );
      this.summary.eventsRead += events.length;
      for (const event of rejected) {
        await deps.rejected.record(account, event, deps.now());
        deps.observer.observe({
          type: "event-rejected",
          account,
          ...(event.serialno !== undefined && { serialno: event.serialno.toString() }),
          issues: event.issues,
        });
      }
      this.summary.rejected += rejected.length;
      // Rejected events with a readable serial are passed over like any other.
      const rejectedThrough = maxSerial(
        rejected.flatMap((event) => (event.serialno === undefined ? [] : [event.serialno])),
      );
      if (events.length === 0 && rejectedThrough === undefined) break;
      // A page of rejected events alone still moves the cursor past them: one empty chunk.
      const chunks = events.length === 0 ? [[]] : chunked(events, CHUNK_SIZE);
      for (const [index, chunk] of chunks.entries()) {
        const extra = index === chunks.length - 1 && rejectedThrough !== undefined ? [rejectedThrough] : [];
        const through = maxSerial([...chunk.map((event) => event.serialno), ...extra]) as bigint;
        if (this.#pastDeadline()) {
          this.summary.lagSeconds = ageSeconds(chunk[0], deps.now());
          return this.#stop("deadline");
        }
        const outcome = await this.#processChunk(chunk, through);
        if (outcome) return this.#stop(outcome);
      }
    }
    return this.#stop("caught-up");
  }

  #pastDeadline(): boolean {
    return (this.deps.wallClock ?? Date.now)() >= this.deadlineMs;
  }

  /** First run: start at the newest event (or the configured serial), reading no history. */
  async #start(): Promise<PollSummary> {
    const { deps, settings } = this;
    const start = settings.startSerialno ?? (await newestSerial(deps.client, deps.now()));
    await deps.cursors.advance(settings.account, undefined, start, deps.now());
    deps.logger.info("cursor initialized", { account: settings.account, serialno: start.toString() });
    this.#cursor = start;
    return this.#stop("started");
  }

  #stop(outcome: PollSummary["outcome"]): PollSummary {
    return { ...this.summary, outcome, cursor: this.#cursor?.toString() };
  }

  /** Vehicle, driver and last position per device, read once per run; alerts go out without them if it fails. */
  async #loadFleet(): Promise<Map<string, FleetDevice>> {
    try {
      const devices = await this.deps.client.allDevices();
      return new Map(devices.map((device) => [device.deviceid, device]));
    } catch (error) {
      this.deps.logger.warn("device list unavailable; alerts go out without vehicle and driver", {
        account: this.settings.account,
        error: (error as Error).message,
      });
      return new Map();
    }
  }

  async #processChunk(
    chunk: readonly DeviceEvent[],
    through: bigint,
  ): Promise<PollSummary["outcome"] | undefined> {
    const { deps, settings } = this;
    const { account } = settings;
    const from = this.#cursor as bigint;
    const nowMs = deps.now();
    const newRecords: NewAlertRecord[] = [];
    const offlineSteps: {
      event: DeviceEvent;
      decision: Extract<Decision, { kind: "confirm-offline" | "cancel-offline" }>;
    }[] = [];
    const changedStates: RuleStateChange[] = [];

    for (const event of chunk) {
      const evaluation = evaluateEvent(
        event,
        settings.rules,
        (ruleId) => this.#states.get(stateKey(event.deviceid, ruleId)),
        nowMs,
      );
      for (const decision of evaluation.decisions) {
        switch (decision.kind) {
          case "alert":
            newRecords.push(this.#alertRecord(event, decision.rule, "pending", decision.suppressedBefore));
            break;
          case "stale":
            newRecords.push(this.#alertRecord(event, decision.rule, "stale", 0));
            this.summary.stale++;
            deps.observer.observe({
              type: "alert-stale",
              account,
              alertId: alertIdOf(account, event.serialno, decision.rule.id),
              serialno: event.serialno.toString(),
              deviceid: event.deviceid,
              rule: decision.rule.id,
            });
            break;
          case "suppressed":
            this.summary.suppressed++;
            deps.observer.observe({
              type: "alert-suppressed",
              account,
              serialno: event.serialno.toString(),
              deviceid: event.deviceid,
              rule: decision.rule.id,
              suppressedSoFar: decision.suppressedSoFar,
            });
            break;
          case "confirm-offline":
          case "cancel-offline":
            offlineSteps.push({ event, decision });
            break;
        }
      }
      for (const [ruleId, state] of evaluation.changed) {
        this.#states.set(stateKey(event.deviceid, ruleId), state);
        const rule = settings.rules.find((candidate) => candidate.id === ruleId);
        // An Offline rule's cooldown fields belong to its confirmation, which alerts later.
        const fields: RuleStateField[] =
          rule?.offlineForMinutes === undefined
            ? ["seenSerialno", "lastAlertSerialno", "lastAlertEventMs", "suppressed"]
            : ["seenSerialno"];
        changedStates.push({ deviceid: event.deviceid, ruleId, state, fields });
      }
    }

    await Promise.all(newRecords.map((record) => deps.alerts.record(record, nowMs)));
    deps.checkpoint?.("alerts-recorded");

    // Publishing is driven by the records, not by this run's decisions: a replay publishes what an
    // earlier run recorded and did not get to send.
    const records = await deliverAlerts(
      await deps.alerts.inWindow(account, from, through),
      deps,
      this.summary,
    );
    deps.checkpoint?.("alerts-published");

    await queueEvidence(records, deps, this.summary);
    for (const { event, decision } of offlineSteps) await this.#offlineStep(event, decision);
    deps.checkpoint?.("side-effects-sent");

    // The last state of each rule and device in the chunk (distinct keys, so written concurrently).
    const latest = new Map(changedStates.map((change) => [stateKey(change.deviceid, change.ruleId), change]));
    await deps.states.saveAll(account, [...latest.values()]);
    deps.checkpoint?.("states-saved");

    if (!(await deps.cursors.advance(account, from, through, deps.now()))) {
      deps.logger.warn("the cursor was moved by another run; stopping", { account });
      return "cursor-moved";
    }
    this.#cursor = through;
    deps.checkpoint?.("cursor-advanced");
    if (!(await deps.lock.renew(account, this.owner, deps.now()))) return "lost-lease";
    return undefined;
  }

  #alertRecord(
    event: DeviceEvent,
    rule: Rule,
    status: "pending" | "stale",
    suppressedBefore: number,
  ): NewAlertRecord {
    const { account, fleetTimeZone } = this.settings;
    const device = this.#fleet.get(event.deviceid);
    return newAlertRecord({ account, event, rule, status, suppressedBefore, device, fleetTimeZone });
  }

  async #offlineStep(
    event: DeviceEvent,
    decision: Extract<Decision, { kind: "confirm-offline" | "cancel-offline" }>,
  ) {
    const { deps, settings } = this;
    const { account } = settings;
    const ids = {
      account,
      serialno: event.serialno.toString(),
      deviceid: event.deviceid,
      rule: decision.rule.id,
    };
    if (decision.kind === "cancel-offline") {
      if (await deps.offlineChecks.cancelBefore(account, event.deviceid, decision.rule.id, event.serialno)) {
        this.summary.offlineCancelled++;
        deps.observer.observe({ type: "offline-cancelled", ...ids, reason: "online-event" });
      }
      return;
    }
    if (
      !(await deps.offlineChecks.schedule(
        account,
        event.deviceid,
        decision.rule.id,
        event.serialno,
        decision.dueAtMs,
      ))
    ) {
      return; // decided already (a later event of this device), nothing to confirm
    }
    const job: OfflineCheckJob = {
      version: 1,
      account,
      ruleId: decision.rule.id,
      deviceid: event.deviceid,
      serialno: event.serialno.toString(),
      eventtime: event.eventtime,
      dueAtMs: decision.dueAtMs,
    };
    await deps.confirmQueue.send([
      { body: JSON.stringify(job), delaySeconds: (decision.dueAtMs - deps.now()) / 1000 },
    ]);
    this.summary.offlineChecks++;
    deps.observer.observe({
      type: "offline-scheduled",
      ...ids,
      dueAt: new Date(decision.dueAtMs).toISOString(),
    });
  }
}

function ageSeconds(event: DeviceEvent | undefined, nowMs: number): number {
  return event ? Math.max(0, Math.round((nowMs - Date.parse(event.eventtime)) / 1000)) : 0;
}
