import { randomUUID } from "node:crypto";
import { deliverAlerts, handOn } from "../alerts/delivery.js";
import { ChunkLedger, RecordLedger } from "../alerts/delivery-ledger.js";
import { type AlertRecord, tableOrder } from "../alerts/record.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import type { RuleState } from "../rules/evaluator.js";
import { type ChunkPlan, ChunkPlanner } from "./chunk-planner.js";
import { chunkRecords, recordsOfChunk } from "./chunk-records.js";
import {
  type AccountSettings,
  POLL_COUNTS,
  type PollerDependencies,
  type PollSummary,
} from "./dependencies.js";
import { newestSerial } from "./newest-serial.js";
import { sendOfflineSteps } from "./offline-steps.js";
import { type Chunk, readFleet, readPage } from "./page-reader.js";
import { stateKey } from "./rule-state.js";

type Outcome = PollSummary["outcome"];

/**
 * What one poll hands the next of the same account, in the same process (the ticks of a run, and
 * the runs of a warm Lambda container): the rule states as the last poll left them, at the cursor
 * it left. They hold while the cursor is still there: no other run has moved it, so none has saved
 * a state the poller owns meanwhile (the Offline confirmation saves only fields the poller neither
 * reads nor writes). Otherwise, and after a poll that failed or stopped short, the next reads them
 * again.
 */
export class TickCarry {
  #kept: { cursor: bigint; states: Map<string, RuleState> } | undefined;

  statesAt(cursor: bigint): Map<string, RuleState> | undefined {
    return this.#kept?.cursor === cursor ? this.#kept.states : undefined;
  }

  keep(cursor: bigint, states: Map<string, RuleState>): void {
    this.#kept = { cursor, states };
  }

  drop(): void {
    this.#kept = undefined;
  }
}

/** What one run holds between chunks. */
interface Run {
  settings: AccountSettings;
  deps: PollerDependencies;
  owner: string;
  summary: PollSummary;
  cursor: bigint;
  states: Map<string, RuleState>;
  /** Vehicle, driver and last status fix per device id, read once per run (may be empty). */
  fleet: ReadonlyMap<string, FleetDevice>;
}

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
  carry = new TickCarry(),
): Promise<PollSummary> {
  const summary = emptySummary(settings.account);
  const owner = randomUUID();
  if (!(await deps.lock.acquire(settings.account, owner, deps.now()))) {
    deps.logger.info("another poller holds this account; skipping", { account: settings.account });
    return { ...summary, outcome: "locked" };
  }
  try {
    const polled = await pollHeld(settings, deps, deadlineMs, owner, summary, carry);
    if (polled.outcome === "cursor-moved" || polled.outcome === "lost-lease") carry.drop();
    return polled;
  } catch (error) {
    carry.drop();
    throw error;
  } finally {
    await deps.lock.release(settings.account, owner);
  }
}

async function pollHeld(
  settings: AccountSettings,
  deps: PollerDependencies,
  deadlineMs: number,
  owner: string,
  summary: PollSummary,
  carry: TickCarry,
): Promise<PollSummary> {
  const { account } = settings;
  const cursor = await deps.cursors.read(account);
  if (cursor === undefined)
    return { ...summary, outcome: "started", cursor: String(await start(settings, deps)) };
  const states = carry.statesAt(cursor) ?? (await deps.states.loadAll(account));
  const fleet = await readFleet(account, deps);
  const run: Run = { settings, deps, owner, summary, cursor, states, fleet };
  const stop = (outcome: Outcome): PollSummary => {
    carry.keep(run.cursor, run.states);
    return { ...summary, outcome, cursor: run.cursor.toString() };
  };
  const pastDeadline = () => (deps.wallClock ?? Date.now)() >= deadlineMs;
  for (;;) {
    if (pastDeadline()) return stop("deadline");
    const chunks = await readPage(account, run.cursor, deps, summary);
    if (chunks === undefined) return stop("caught-up");
    const planner = new ChunkPlanner(chunks, run.states, settings, deps);
    try {
      for (const [index, chunk] of chunks.entries()) {
        if (pastDeadline()) {
          summary.lagSeconds = ageSeconds(chunk.events[0], deps.now());
          return stop("deadline");
        }
        const outcome = await runChunk(run, chunk, planner.planOf(index));
        if (outcome) return stop(outcome);
      }
    } finally {
      planner.cancel();
    }
  }
}

/** First run: start at the newest event (or the configured serial), reading no history. */
async function start(settings: AccountSettings, deps: PollerDependencies): Promise<bigint> {
  const serialno = settings.startSerialno ?? (await newestSerial(deps.client, deps.now()));
  await deps.cursors.advance(settings.account, undefined, serialno, deps.now());
  deps.logger.info("cursor initialized", { account: settings.account, serialno: serialno.toString() });
  return serialno;
}

/**
 * Records the chunk's new alerts, then publishes every alert of its window that has not gone out
 * and sends their jobs. One write for the chunk's new records (batched), one for its publication,
 * one for its jobs: the window's own records say what was decided, the chunk's publication item
 * what was done (docs/ARCHITECTURE.md, "Exactly once"). A window with no alert writes nothing.
 * Resolves once the records are written, with the delivery under way: from then on the records
 * drive it, whatever the states and the Offline steps do meanwhile.
 */
async function recordAndDeliver(
  run: Run,
  through: bigint,
  decided: Awaited<ReturnType<typeof recordsOfChunk>>,
): Promise<{ delivery: Promise<void> }> {
  const { deps, settings, summary } = run;
  const { account } = settings;
  const from = run.cursor;
  const opening = () => deps.publications.open(account, from, deps.now());
  // Publishing is driven by the records, not by this run's decisions: a replay publishes what an
  // earlier run recorded and did not get to send. With alerts decided, the item is opened meanwhile.
  const [existing, openedEarly] = await Promise.all([
    deps.alerts.inWindow(account, from, through),
    decided.length > 0 ? opening() : undefined,
  ]);
  if (decided.length === 0 && existing.length === 0) return { delivery: Promise.resolve() };
  const opened = openedEarly ?? (await opening());
  const written = await deps.alerts.recordChunk(
    await chunkRecords(decided, existing, { from, decidedAtMs: opened.decidedAtMs }, deps.router),
  );
  deps.checkpoint?.("alerts-recorded");
  const window: AlertRecord[] = [...existing, ...written].sort(tableOrder);
  const delivery = (async () => {
    const ledger = await ChunkLedger.of(
      { account, from, opened },
      window,
      deps.publications,
      new RecordLedger(deps.alerts, deps.now),
    );
    const delivered = await deliverAlerts(window, deps, summary, ledger);
    deps.checkpoint?.("alerts-published");
    await handOn(delivered, deps, summary, ledger);
  })();
  return { delivery };
}

/** Waits for every one of them, then throws the first failure if any. */
async function allSettledOrThrow(steps: readonly Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(steps)).find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
}

/** Carries out a decided chunk step by step; an outcome when the run must stop. */
async function runChunk(run: Run, chunk: Chunk, plan: ChunkPlan): Promise<Outcome | undefined> {
  const { deps, settings, summary } = run;
  const { account } = settings;
  const from = run.cursor;
  const { decision } = plan;
  summary.stale += decision.stale;
  summary.suppressed += decision.suppressed;
  for (const observation of decision.observations) deps.observer.observe(observation);

  const decided = await recordsOfChunk(plan, run.fleet, settings, deps, summary);
  const { delivery } = await recordAndDeliver(run, chunk.through, decided);
  // The records are written: the states may be saved while they go out (a replay decides nothing
  // new past a saved state, and publishes from the records). The Offline steps come before the
  // states, which would otherwise keep a replay from deciding them again. Both settle before the
  // run goes on or stops: none may still be writing once the lease is given up.
  await allSettledOrThrow([
    delivery,
    (async () => {
      await sendOfflineSteps(account, decision.offlineSteps, deps, summary);
      deps.checkpoint?.("side-effects-sent");
      // The last state of each rule and device in the chunk (distinct keys, so written concurrently).
      await deps.states.saveAll(account, decision.states);
      deps.checkpoint?.("states-saved");
    })(),
  ]);
  for (const { deviceid, ruleId, state } of decision.states)
    run.states.set(stateKey(deviceid, ruleId), state);

  if (!(await deps.cursors.advance(account, from, chunk.through, deps.now()))) {
    deps.logger.warn("the cursor was moved by another run; stopping", { account });
    return "cursor-moved";
  }
  run.cursor = chunk.through;
  deps.checkpoint?.("cursor-advanced");
  if (!(await deps.lock.renew(account, run.owner, deps.now()))) return "lost-lease";
  return undefined;
}

function emptySummary(account: string): PollSummary {
  const counts = Object.fromEntries(POLL_COUNTS.map((count) => [count, 0])) as Record<
    (typeof POLL_COUNTS)[number],
    number
  >;
  return { account, outcome: "caught-up", ...counts, lagSeconds: 0 };
}

function ageSeconds(event: DeviceEvent | undefined, nowMs: number): number {
  return event ? Math.max(0, Math.round((nowMs - Date.parse(event.eventtime)) / 1000)) : 0;
}
