import type { GpsHistory } from "../context/gps-history.js";
import { lookUpGpsHistories } from "../context/gps-lookup.js";
import type { RuleState } from "../rules/evaluator.js";
import { type ChunkDecision, decideChunk } from "./decide-chunk.js";
import type { AccountSettings, PollerDependencies } from "./dependencies.js";
import type { Chunk } from "./page-reader.js";
import { stateKey } from "./rule-state.js";

/**
 * Chunks whose GPS lookups are made together: one /api/gps call per device covers its pending
 * alerts in all of them (never more than one call per device per chunk). One: `npm run bench`
 * measured wider windows as dearer, not cheaper: a device's alerts spread over several chunks make
 * a long time range, and the points in between cost more to fetch and parse than the calls saved.
 */
export const LOOKUP_WINDOW_CHUNKS = 1;

/** The GPS lookups of a window of chunks, under way. */
export interface LookupWindow {
  histories: Promise<Map<string, GpsHistory>>;
  /** Pending alerts per device in the window: what a failed lookup leaves without a track. */
  alerts: ReadonlyMap<string, number>;
  /** Whether a chunk has counted and reported these lookups yet. */
  reported: boolean;
}

/** A chunk decided, with the GPS lookups for its pending alerts under way. */
export interface ChunkPlan {
  decision: ChunkDecision;
  lookups: LookupWindow;
}

/**
 * Decides a page's chunks a window ahead of the one being written, and starts each window's GPS
 * lookups as it is decided, so that the lookups overlap the writes of the window before. Deciding
 * ahead is safe: a decision is pure, and each chunk decides on the states the chunks before it
 * leave, whether those are saved yet or not.
 */
export class ChunkPlanner {
  /** Plans decided and not yet taken: a taken one is let go, with its tracks once its window is done. */
  readonly #plans = new Map<number, ChunkPlan>();
  #planned = 0;
  /** The states decided in this page so far, over the run's saved states. */
  readonly #decided = new Map<string, RuleState>();
  readonly #cancel = new AbortController();

  constructor(
    private readonly chunks: readonly Chunk[],
    private readonly saved: ReadonlyMap<string, RuleState>,
    private readonly settings: AccountSettings,
    private readonly deps: Pick<PollerDependencies, "client" | "now">,
  ) {}

  /** The plan of chunk `index`; call once per chunk, in increasing order. */
  planOf(index: number): ChunkPlan {
    const window = Math.floor(index / LOOKUP_WINDOW_CHUNKS);
    this.#planWindow(window);
    this.#planWindow(window + 1);
    const plan = this.#plans.get(index) as ChunkPlan;
    this.#plans.delete(index);
    return plan;
  }

  /** Ends the lookups under way: the run stops. */
  cancel(): void {
    this.#cancel.abort();
  }

  #planWindow(window: number): void {
    const first = window * LOOKUP_WINDOW_CHUNKS;
    if (first >= this.chunks.length || first < this.#planned) return;
    this.#planned = first + LOOKUP_WINDOW_CHUNKS;
    const states = { get: (key: string) => this.#decided.get(key) ?? this.saved.get(key) };
    const decisions = this.chunks.slice(first, first + LOOKUP_WINDOW_CHUNKS).map((chunk) => {
      const decision = decideChunk({
        events: chunk.events,
        settings: this.settings,
        states,
        nowMs: this.deps.now(),
      });
      for (const change of decision.states)
        this.#decided.set(stateKey(change.deviceid, change.ruleId), change.state);
      return decision;
    });
    const pending = decisions.flatMap((decision) =>
      decision.alerts.filter((alert) => alert.status === "pending").map((alert) => alert.event),
    );
    const alerts = new Map<string, number>();
    for (const event of pending) alerts.set(event.deviceid, (alerts.get(event.deviceid) ?? 0) + 1);
    const lookups: LookupWindow = {
      histories: lookUpGpsHistories(pending, this.deps.client, this.settings.gps, this.#cancel.signal),
      alerts,
      reported: false,
    };
    decisions.forEach((decision, offset) => {
      this.#plans.set(first + offset, { decision, lookups });
    });
  }
}
