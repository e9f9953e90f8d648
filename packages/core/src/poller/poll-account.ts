import { randomUUID } from "node:crypto";
import { LEASE_MARGIN_MS } from "../cursor/account-lock.js";
import { FencedError, LeaseGuard } from "../cursor/fence.js";
import type { HeldLease } from "../cursor/ports.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import type { RuleState } from "../rules/evaluator.js";
import { type Run, recordChunk, type StopOutcome, sendChunk } from "./chunk-stages.js";
import {
  type AccountSettings,
  POLL_COUNTS,
  type PollerDependencies,
  type PollSummary,
} from "./dependencies.js";
import { newestSerial } from "./newest-serial.js";
import { eventPages, isEmptyScan, readFleet, type SerialScan, scanSerials } from "./page-reader.js";
import { PlannedChunks } from "./planned-chunks.js";
import { tellStale } from "./stale-steps.js";

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

/** When a poll must stop, and what it keeps from the poll before it. */
export interface PollOptions {
  /** Wall-clock epoch ms after which the poll starts no new chunk: its invocation's end, less a margin. */
  deadlineMs: number;
  /**
   * Wall-clock epoch ms at which its invocation ends (Lambda's time-out): the lease holds
   * LEASE_MARGIN_MS past it, and the poll starts no deciding write or Publish after it. Default: a
   * minute from the take, for a poll run outside an invocation (a test, a script).
   */
  endsAtMs?: number;
  carry?: TickCarry;
  chain?: ChainPoll;
}

/** What a poll run outside an invocation is given to act in. */
const DEFAULT_RUN_MS = 60_000;

/**
 * One poll of one account: read the events after the cursor, a bounded page at a time
 * (`eventPages`), until caught up or the deadline, and for each chunk, in this order: record
 * alerts, publish the pending ones, send evidence jobs and Offline checks, save rule states, count
 * stale alerts, move the cursor (the next chunk's alerts are recorded meanwhile); caught up, tell
 * the groups what the catch-up held back as stale. A crash anywhere replays from the last cursor,
 * and every step is idempotent, so nothing is lost and nothing is published twice.
 *
 * It first looks, without the lease: the cursor, and the serial numbers after it. Most polls of a
 * short interval find none, and such a poll writes nothing at all (reading changes nothing another
 * poll relies on). Only a poll that found something takes the lease, then reads the cursor again
 * under it: another poll may have moved it meanwhile, and saved the rule states of where it moved
 * it to, which a poll from the old cursor would overwrite with older ones. The look is reused only
 * if the cursor is where it was.
 *
 * The lease holds until past the invocation's end and fences every deciding write by its epoch: a
 * poll that a later one has taken the lease from stops at its next such write, sending nothing
 * more, and ends `fenced` (docs/design/exactly-once.md, "The lease and the fence").
 */
export async function pollAccount(
  settings: AccountSettings,
  deps: PollerDependencies,
  { deadlineMs, endsAtMs, carry = new TickCarry(), chain }: PollOptions,
): Promise<PollSummary> {
  const { account } = settings;
  const wallClock = deps.wallClock ?? Date.now;
  const summary = emptySummary(account);
  const look = await lookAhead(account, deps);
  if (look !== undefined && isEmptyScan(look.scan)) {
    // Caught up: a summary a crash left owed still goes out (nothing is read once none is owed).
    await tellStale(account, look.cursor, deps, pastDeadlineOf(deps, deadlineMs));
    // The chain's last poll gives up the lease an earlier one left it, for the next chain.
    if (chain?.last && chain.handedOverBy !== undefined)
      await deps.lock.releaseHandedOver(account, chain.handedOverBy, deps.now());
    else deps.lock.caughtUp(account, deps.now());
    return { ...summary, outcome: "caught-up", cursor: look.cursor.toString() };
  }
  const takenAtMs = wallClock();
  const actsUntilMs = endsAtMs ?? takenAtMs + DEFAULT_RUN_MS;
  const lease = await deps.lock.acquire(account, {
    token: randomUUID(),
    nowMs: takenAtMs,
    untilMs: actsUntilMs + (deps.leaseMarginMs ?? LEASE_MARGIN_MS),
    ...(chain?.handedOverBy !== undefined && { handedOverBy: chain.handedOverBy }),
  });
  if (!lease) {
    deps.logger.info("another poller holds this account; skipping", { account });
    return { ...summary, outcome: "locked" };
  }
  const guard = new LeaseGuard(account, lease.epoch, actsUntilMs, wallClock);
  let caughtUpAtMs: number | undefined;
  let leaving: "release" | "hand-over" | "keep-off" = "release";
  try {
    const polled = await pollHeld(settings, deps, deadlineMs, { lease, guard, summary, carry, look });
    if (polled.outcome !== "caught-up" && polled.outcome !== "deadline") carry.drop();
    if (polled.outcome === "caught-up" || polled.outcome === "started") caughtUpAtMs = deps.now();
    // Fenced, the lease is another poll's: nothing of it is this poll's to give up.
    if (polled.outcome === "fenced") leaving = "keep-off";
    else if (HANDED_OVER.has(polled.outcome) && chain?.goesOn(lease.token) === true) leaving = "hand-over";
    return polled;
  } catch (error) {
    carry.drop();
    throw error;
  } finally {
    if (leaving === "hand-over") deps.lock.handOver(lease, caughtUpAtMs);
    else if (leaving === "release") await deps.lock.release(lease, caughtUpAtMs);
  }
}

/**
 * A poll of an account's chain (poll-timer.ts): the lease the poll before it left held, and
 * whether the chain goes on after it, asked once the poll has ended well. If so, the lease is left
 * for the chain's next poll to take over by its token, and the release's write is saved; a poll
 * that stopped short or failed releases it.
 */
export interface ChainPoll {
  /** The token the chain's previous poll left the lease held under; none: it left none. */
  handedOverBy?: string;
  /** Planned as the chain's last poll: one that finds nothing releases the lease its chain holds. */
  last: boolean;
  /** Whether a poll follows, which will take the lease over from `token`. */
  goesOn(token: string): boolean;
}

/** Outcomes after which the chain's next poll may go on where this one left off. */
const HANDED_OVER = new Set<Outcome>(["caught-up", "started", "deadline"]);

/** What a poll saw before it took the lease: the cursor and the scan after it (undefined before a first run). */
interface Look {
  cursor: bigint;
  scan: SerialScan;
}

async function lookAhead(account: string, deps: PollerDependencies): Promise<Look | undefined> {
  const cursor = await deps.cursors.read(account);
  return cursor === undefined ? undefined : { cursor, scan: await scanSerials(cursor, deps) };
}

interface Held {
  lease: HeldLease;
  guard: LeaseGuard;
  summary: PollSummary;
  carry: TickCarry;
  look: Look | undefined;
}

async function pollHeld(
  settings: AccountSettings,
  deps: PollerDependencies,
  deadlineMs: number,
  { lease, guard, summary, carry, look }: Held,
): Promise<PollSummary> {
  const { account } = settings;
  const cursor = await deps.cursors.read(account);
  if (cursor === undefined)
    return { ...summary, outcome: "started", cursor: String(await start(settings, deps, lease.epoch)) };
  const states = carry.statesAt(cursor) ?? (await deps.states.loadAll(account));
  // Read beside the first page, not before it: an alert waits for the slower of the two alone.
  const fleet = readFleet(account, deps);
  const run: Run = { settings, deps, guard, summary, cursor, states, fleet };
  const stop = (outcome: Outcome): PollSummary => {
    carry.keep(run.cursor, run.states);
    return { ...summary, outcome, cursor: run.cursor.toString() };
  };
  const pastDeadline = pastDeadlineOf(deps, deadlineMs);
  const chunks = new PlannedChunks(
    eventPages(account, run.cursor, deps, summary, look?.cursor === cursor ? look.scan : undefined),
    run.states,
    settings,
    deps,
  );
  try {
    const outcome = await runChunks(run, chunks, pastDeadline);
    if (outcome) return stop(outcome);
    await tellStale(account, run.cursor, deps, pastDeadline);
    return stop("caught-up");
  } catch (error) {
    if (!(error instanceof FencedError)) throw error;
    deps.observer.observe({ type: "poll-fenced", account, epoch: error.epoch, at: error.at });
    return { ...summary, outcome: "fenced", cursor: run.cursor.toString() };
  } finally {
    await chunks.close();
    await fleet;
  }
}

/**
 * The chunks of the pages, two at a time: each chunk's records are written while the chunk before
 * it goes out (docs/design/exactly-once.md, "Two chunks at a time"), across page boundaries too. A chunk
 * goes out only once the one before it has moved the cursor, so the writes
 * that publish, save states and move the cursor keep their order; only the next chunk's own
 * records and publication item are written meanwhile. Whatever is under way settles before this
 * returns or throws. Undefined once every page is handled: caught up.
 */
async function runChunks(
  run: Run,
  chunks: PlannedChunks,
  pastDeadline: () => boolean,
): Promise<Outcome | undefined> {
  let goingOut: Promise<StopOutcome | undefined> = Promise.resolve(undefined);
  let from = run.cursor;
  try {
    // The last event handled: stopped before the next page is read, the run is at least its age behind.
    let lastEvent: DeviceEvent | undefined;
    for (;;) {
      if (pastDeadline()) {
        const stopped = await goingOut;
        const behind = chunks.nextEventRead() ?? lastEvent;
        if (stopped === undefined) run.summary.lagSeconds = ageSeconds(behind, run.deps.now());
        return stopped ?? "deadline";
      }
      const next = await chunks.next();
      if (next === undefined) return await goingOut;
      const { chunk, plan } = next;
      const [recorded, sent] = await Promise.allSettled([recordChunk(run, chunk, plan, from), goingOut]);
      if (sent.status === "rejected") throw sent.reason;
      if (sent.value !== undefined) return sent.value;
      if (recorded.status === "rejected") throw recorded.reason;
      goingOut = sendChunk(run, recorded.value);
      from = chunk.through;
      lastEvent = chunk.events.at(-1) ?? lastEvent;
    }
  } finally {
    // Settled either way; a failure of its own has been thrown already, or another is on its way.
    await goingOut.catch(() => undefined);
  }
}

/** First run: start at the newest event (or the configured serial), reading no history. */
async function start(settings: AccountSettings, deps: PollerDependencies, epoch: number): Promise<bigint> {
  const serialno = settings.startSerialno ?? (await newestSerial(deps.client, deps.now()));
  await deps.cursors.advance(settings.account, undefined, serialno, deps.now(), epoch);
  deps.logger.info("cursor initialized", { account: settings.account, serialno: serialno.toString() });
  return serialno;
}

const pastDeadlineOf = (deps: Pick<PollerDependencies, "wallClock">, deadlineMs: number) => () =>
  (deps.wallClock ?? Date.now)() >= deadlineMs;

function emptySummary(account: string): PollSummary {
  const counts = Object.fromEntries(POLL_COUNTS.map((count) => [count, 0])) as Record<
    (typeof POLL_COUNTS)[number],
    number
  >;
  return { account, outcome: "caught-up", ...counts, lagSeconds: 0 };
}

/**
 * How far behind an account is whose poll failed: since a run of it last caught up (its events
 * since are not read yet), as far as the lease tells; undefined before any run caught up.
 */
export function failedLagSeconds(
  lock: PollerDependencies["lock"],
  account: string,
  nowMs: number,
): number | undefined {
  const caughtUpAtMs = lock.lastCaughtUpMs(account);
  return caughtUpAtMs === undefined ? undefined : Math.max(0, Math.round((nowMs - caughtUpAtMs) / 1000));
}

function ageSeconds(event: DeviceEvent | undefined, nowMs: number): number {
  return event ? Math.max(0, Math.round((nowMs - Date.parse(event.eventtime)) / 1000)) : 0;
}
