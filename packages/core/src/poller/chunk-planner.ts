import { type GpsHistories, lookUpGpsHistories } from "../context/gps-lookup.js";
import type { RuleState } from "../rules/evaluator.js";
import { type ChunkDecision, decideChunk } from "./decide-chunk.js";
import type { AccountSettings, PollerDependencies } from "./dependencies.js";
import type { Chunk } from "./page-reader.js";
import { stateKey } from "./rule-state.js";

// Chunks decided ahead of the one being written: their lookups overlap two chunks' writes, which
// take about as long as one chunk's lookups since a chunk's alerts cost one batched write.
const PLAN_AHEAD = 2;

/** A chunk decided, with the GPS lookups for its pending alerts under way. */
export interface ChunkPlan {
  decision: ChunkDecision;
  /** The /api/gps lookups of the chunk's pending alerts (one per device and stretch of its events). */
  histories: Promise<GpsHistories>;
}

/** Rule states by key, as a decision reads them. */
export interface StatesView {
  get(key: string): RuleState | undefined;
}

/**
 * Decides a page's chunks two ahead of the one being written, and starts each chunk's GPS lookups
 * as it is decided, so that they overlap the writes of the chunks before. Deciding ahead is safe: a
 * decision is pure, and each chunk decides on the states the chunks before it leave, whether those
 * are saved yet or not (the next page's planner decides on what this one `decided()`, over the run's). (Looking up several chunks in one call per device was measured dearer with
 * `npm run bench`: the longer time ranges bring more points to parse than the calls saved.)
 */
export class ChunkPlanner {
  /** Plans decided and not yet taken. */
  readonly #plans = new Map<number, ChunkPlan>();
  /** The states decided in this page so far, over the run's saved states. */
  readonly #decided = new Map<string, RuleState>();
  readonly #cancel = new AbortController();

  constructor(
    private readonly chunks: readonly Chunk[],
    private readonly saved: StatesView,
    private readonly settings: AccountSettings,
    private readonly deps: Pick<PollerDependencies, "client" | "now">,
  ) {}

  /** The plan of chunk `index`, the next one planned meanwhile; call once per chunk, in order. */
  planOf(index: number): ChunkPlan {
    const plan = this.#plans.get(index) ?? this.#plan(index);
    this.#plans.delete(index);
    // Planned in order: each decides on the states the one before it leaves.
    for (let ahead = index + 1; ahead <= index + PLAN_AHEAD && ahead < this.chunks.length; ahead++)
      if (!this.#plans.has(ahead)) this.#plans.set(ahead, this.#plan(ahead));
    return plan;
  }

  /** The states the page's chunks decided so far, alone (a copy). */
  decided(): ReadonlyMap<string, RuleState> {
    return new Map(this.#decided);
  }

  /** Ends the lookups under way: the run stops. */
  cancel(): void {
    this.#cancel.abort();
  }

  #plan(index: number): ChunkPlan {
    const states = { get: (key: string) => this.#decided.get(key) ?? this.saved.get(key) };
    const decision = decideChunk({
      events: (this.chunks[index] as Chunk).events,
      settings: this.settings,
      states,
      nowMs: this.deps.now(),
    });
    for (const change of decision.states)
      this.#decided.set(stateKey(change.deviceid, change.ruleId), change.state);
    const pending = decision.alerts.filter((alert) => alert.status === "pending").map((alert) => alert.event);
    return {
      decision,
      histories: lookUpGpsHistories(pending, this.deps.client, this.settings.gps, this.#cancel.signal),
    };
  }
}
