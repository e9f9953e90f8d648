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
  /** The next page, read ahead, with its planner (which decides a chunk when it is asked for). */
  #nextPage: Promise<PlannedPage | undefined> | undefined;

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
      const page = await (this.#nextPage ?? this.#readPage(this.states));
      this.#nextPage = undefined;
      // The planner before is let go (its lookups all taken), so that a run holds two pages at most.
      this.#planner?.cancel();
      if (page === undefined) return undefined;
      this.#chunks = page.chunks;
      this.#planner = page.planner;
      this.#index = 0;
    }
    const index = this.#index++;
    const planner = this.#planner as ChunkPlanner;
    const planned = { chunk: this.#chunks[index] as Chunk, plan: planner.planOf(index) };
    // The page's last chunk, decided with every chunk before it: read the next page meanwhile. A
    // failure is handled where it is awaited (the next call, or `close`);
    // marked handled now, it cannot end the process meanwhile.
    if (this.#index === this.#chunks.length) {
      this.#nextPage = this.#readPage(this.#statesAfter(planner));
      this.#nextPage.catch(() => undefined);
    }
    return planned;
  }

  /** Ends the lookups under way and the reading of pages: the run stops. */
  async close(): Promise<void> {
    this.#planner?.cancel();
    // A page read ahead is let finish (a generator cannot be returned while it runs), then ended.
    const ahead = await this.#nextPage?.catch(() => undefined);
    ahead?.planner.cancel();
    await this.pages.return();
  }

  async #readPage(states: StatesView): Promise<PlannedPage | undefined> {
    const page = await this.pages.next();
    if (page.done) return undefined;
    // Not decided yet: deciding and looking up its first chunk now held a chunk more at the peak
    // (a catch-up of 100,000 events at 128 MB: 102.0 MiB against 98.3; docs/PERFORMANCE.md).
    const planner = new ChunkPlanner(page.value, states, this.settings, this.deps);
    return { chunks: page.value, planner };
  }

  /**
   * The states a new page decides on: what the page before decided, over the run's states. Those
   * hold every chunk sent whole, and the chunks of the pages before that one have all been sent
   * (two at a time: once the page before has begun, the one before it is out).
   */
  #statesAfter(previous: ChunkPlanner): StatesView {
    const decided = previous.decided();
    return { get: (key) => decided.get(key) ?? this.states.get(key) };
  }
}

interface PlannedPage {
  chunks: readonly Chunk[];
  planner: ChunkPlanner;
}
