import { deliverAlerts } from "../alerts/delivery.js";
import { ChunkLedger, RecordLedger } from "../alerts/delivery-ledger.js";
import { handOn } from "../alerts/hand-on.js";
import type { Publication } from "../alerts/publication-store.js";
import { type AlertRecord, alertIdOf, type NewAlertRecord, tableOrder } from "../alerts/record.js";
import { oversizedRecord } from "../alerts/record-size.js";
import type { LeaseGuard } from "../cursor/fence.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { RuleState } from "../rules/evaluator.js";
import { setAsideEntryOf } from "../setaside/entry.js";
import type { ChunkPlan } from "./chunk-planner.js";
import { chunkRecords, recordsOfChunk } from "./chunk-records.js";
import type { ChunkDecision } from "./decide-chunk.js";
import type { AccountSettings, PollerDependencies, PollSummary } from "./dependencies.js";
import { sendOfflineSteps } from "./offline-steps.js";
import type { Chunk } from "./page-reader.js";
import { stateKey } from "./rule-state.js";
import { noteStale } from "./stale-steps.js";
import { devicesCameOnline, wakeParkedEvidence } from "./wake-steps.js";

/** Why a run stopped before it caught up (a fenced one stops by a FencedError). */
export type StopOutcome = Extract<PollSummary["outcome"], "cursor-moved">;

/** What one run holds between chunks. */
export interface Run {
  settings: AccountSettings;
  deps: PollerDependencies;
  /** The run's lease: its epoch fences every deciding write, its time is checked before the others. */
  guard: LeaseGuard;
  summary: PollSummary;
  /** Where the cursor stands: the last chunk sent out whole. */
  cursor: bigint;
  states: Map<string, RuleState>;
  /** Vehicle, driver and last status fix per device id, read once per run (may be empty; never fails). */
  fleet: Promise<ReadonlyMap<string, FleetDevice>>;
}

/** A chunk whose alert records are written, waiting to go out. */
export interface RecordedChunk {
  /** The cursor the chunk was read after. */
  from: bigint;
  through: bigint;
  decision: ChunkDecision;
  /** Every record of the chunk's serial numbers, this run's and earlier runs', in table order. */
  window: AlertRecord[];
  /** The chunk's publication item, opened; undefined when the window holds no alert. */
  opened: Publication | undefined;
  /** Devices with an Online event in the chunk: their parked evidence is woken (wake-steps.ts). */
  cameOnline: string[];
}

/**
 * The first stage of a chunk: its new alerts recorded. It writes nothing but the chunk's own
 * records and publication item, so it may run while the chunk before it goes out (see
 * `sendChunk`). Publishing is driven by the records, not by this run's decisions: a replay
 * publishes what an earlier run recorded and did not get to send. With alerts decided, the
 * publication item is opened while the window is read.
 */
export async function recordChunk(
  run: Run,
  chunk: Chunk,
  plan: ChunkPlan,
  from: bigint,
): Promise<RecordedChunk> {
  const { deps, settings, summary } = run;
  const { account } = settings;
  const { decision } = plan;
  summary.stale += decision.stale;
  summary.suppressed += decision.suppressed;
  for (const observation of decision.observations) deps.observer.observe(observation);

  const decided = await storable(await recordsOfChunk(plan, await run.fleet, settings, deps, summary), deps);
  const recorded = { from, through: chunk.through, decision, cameOnline: devicesCameOnline(chunk.events) };
  const opening = () => deps.publications.open(account, from, deps.now(), run.guard.epoch);
  const [existing, openedEarly] = await Promise.all([
    deps.alerts.inWindow(account, from, chunk.through),
    decided.length > 0 ? opening() : undefined,
  ]);
  if (decided.length === 0 && existing.length === 0) return { ...recorded, window: [], opened: undefined };
  const opened = openedEarly ?? (await opening());
  const records = await chunkRecords(
    decided,
    existing,
    { from, decidedAtMs: opened.decidedAtMs },
    deps.router,
  );
  // A batch carries no condition: written only while the lease is surely this run's.
  if (records.length > 0) run.guard.check("alert-records");
  const written = await deps.alerts.recordChunk(records);
  await deps.checkpoint?.("alerts-recorded");
  return { ...recorded, window: [...existing, ...written].sort(tableOrder), opened };
}

/**
 * The records DynamoDB will take; the others (an event or names the size of a book) are set aside,
 * before anything is routed or written for them, so that the chunk goes on without them.
 */
async function storable(
  records: readonly NewAlertRecord[],
  deps: Pick<PollerDependencies, "setAside">,
): Promise<NewAlertRecord[]> {
  const oversized = records.flatMap((record) => {
    const reason = oversizedRecord(record);
    return reason === undefined ? [] : [{ record, reason }];
  });
  if (oversized.length === 0) return [...records];
  await deps.setAside.put(
    oversized.map(({ record, reason }) =>
      setAsideEntryOf(
        { ...record, alertId: alertIdOf(record.account, record.serialno, record.ruleId) },
        "record",
        reason,
      ),
    ),
  );
  return records.filter((record) => !oversized.some((set) => set.record === record));
}

/**
 * The second stage: the chunk goes out, then the cursor moves past it. Its records are published
 * where the ledger says they are owed and their jobs sent; meanwhile its Offline steps are sent
 * and then its rule states saved (a replay decides nothing new past a saved state, and publishes
 * from the records; the Offline steps come first, since a saved state would keep a replay from
 * deciding them again), its stale records are counted for the stale summary, and the parked
 * evidence of devices that came online is woken. All settle before the cursor moves, and before
 * the run goes on or stops: none may still be writing once the lease is given up. An outcome when
 * the run must stop.
 */
export async function sendChunk(run: Run, chunk: RecordedChunk): Promise<StopOutcome | undefined> {
  const { deps, settings, summary } = run;
  const { account } = settings;
  const { decision } = chunk;
  await allSettledOrThrow([
    deliver(run, chunk),
    (async () => {
      await sendOfflineSteps(account, decision.offlineSteps, deps, summary);
      await deps.checkpoint?.("side-effects-sent");
      // The last state of each rule and device in the chunk (distinct keys, so written concurrently).
      await deps.states.saveAll(account, decision.states, run.guard);
      await deps.checkpoint?.("states-saved");
    })(),
    noteStale(run, chunk.window, chunk.through),
    wakeParkedEvidence(run, chunk.cameOnline),
  ]);
  for (const { deviceid, ruleId, state } of decision.states)
    run.states.set(stateKey(deviceid, ruleId), state);

  if (!(await deps.cursors.advance(account, chunk.from, chunk.through, deps.now(), run.guard.epoch))) {
    deps.logger.warn("the cursor was moved by another run; stopping", { account });
    return "cursor-moved";
  }
  run.cursor = chunk.through;
  await deps.checkpoint?.("cursor-advanced");
  return undefined;
}

/**
 * Publishes what the window owes, then sends the jobs of what went out. What it owes is decided by
 * the chunk's claim just before the Publish (delivery-ledger.ts), not by the item as it was opened.
 */
async function deliver(run: Run, { from, window, opened }: RecordedChunk): Promise<void> {
  if (opened === undefined) return;
  const { deps, settings, summary, guard } = run;
  const ledger = await ChunkLedger.of(
    { account: settings.account, from, opened, guard },
    window,
    deps.publications,
    new RecordLedger(deps.alerts, { now: deps.now, wallClock: deps.wallClock }),
  );
  const delivered = await deliverAlerts(window, deps, summary, ledger);
  await deps.checkpoint?.("alerts-published");
  await handOn(delivered, deps, summary, ledger);
}

/** Waits for every one of them, then throws the first failure if any. */
async function allSettledOrThrow(steps: readonly Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(steps)).find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
}
