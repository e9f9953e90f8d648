import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import type { RuleState } from "../rules/evaluator.js";
import { type ChunkPlan, ChunkPlanner, type StatesView } from "./chunk-planner.js";
import type { AccountSettings, PollerDependencies } from "./dependencies.js";
import type { Chunk } from "./page-reader.js";

/** A chunk with its plan (its decision, its GPS lookups under way). */
export interface PlannedChunk {
  chunk: Chunk;
  plan: ChunkPlan;
}

/**
 * The chunks of bounded pages as one stream, each with its plan: so that a catch-up goes on two
 * chunks at a time across page boundaries as within a page, and the next page is read while the
 * last chunk of the one before is handled (one page ahead: two pages held at most). Each page's
 * planner decides on the states the page before it left, whether they are saved yet or not.
 */
export class PlannedChunks {
  #planner: ChunkPlanner | undefined;
  #chunks: readonly Chunk[] = [];
  #index = 0;
  #nextPage: Promise<IteratorResult<Chunk[], void>> | undefined;

  constructor(
    private readonly pages: AsyncGenerator<Chunk[], void, undefined>,
    private readonly states: ReadonlyMap<string, RuleState>,
    private readonly settings: AccountSettings,
    private readonly deps: Pick<PollerDependencies, "client" | "now">,
  ) {}

  /** The first event of the next chunk, if its page is read already (nothing is read for it). */
  nextEventRead(): DeviceEvent | undefined {
    return this.#chunks[this.#index]?.events[0];
  }

  /** The next chunk and its plan; undefined once the pages are read to the end. */
  async next(): Promise<PlannedChunk | undefined> {
    if (this.#index >= this.#chunks.length) {
      const page = await (this.#nextPage ?? this.pages.next());
      this.#nextPage = undefined;
      if (page.done) return undefined;
      this.#chunks = page.value;
      this.#index = 0;
      this.#planner = new ChunkPlanner(
        this.#chunks,
        this.#statesAfter(this.#planner),
        this.settings,
        this.deps,
      );
    }
    const index = this.#index++;
    // The page's last chunk: read the next page meanwhile. Its failure is handled where it is
    // awaited (the next call, or `close`); marked handled now, it cannot end the process meanwhile.
    if (this.#index === this.#chunks.length) {
      this.#nextPage = this.pages.next();
      this.#nextPage.catch(() => undefined);
    }
    const planner = this.#planner as ChunkPlanner;
    return { chunk: this.#chunks[index] as Chunk, plan: planner.planOf(index) };
  }

  /**
   * The states a new page decides on: what the page before decided, over the run's states. Those
   * hold every chunk sent whole, and the chunks of the pages before that one have all been sent
   * (two at a time: once the page before has begun, the one before it is out). The planner before
   * is let go (its lookups all taken), so that a run holds no more than its two pages.
   */
  #statesAfter(previous: ChunkPlanner | undefined): StatesView {
    if (previous === undefined) return this.states;
    const decided = previous.decided();
    previous.cancel();
    return { get: (key) => decided.get(key) ?? this.states.get(key) };
  }

  /** Ends the lookups under way and the reading of pages: the run stops. */
  async close(): Promise<void> {
    this.#planner?.cancel();
    // A page read ahead is let finish (a generator cannot be returned while it runs), then ended.
    await this.#nextPage?.catch(() => undefined);
    await this.pages.return();
  }
}
