import type { StructuredLogger } from "../logging.js";
import type { Observer } from "../observer.js";
import { type SetAsideEntry, type StoredSetAside, setAsideIdentity } from "./entry.js";
import { setAsideNotice } from "./notice.js";
import type { OpsChannel, SetAsideRecords } from "./ports.js";

/**
 * How long a claim to tell ops of an entry belongs to its teller, on the wall clock: longer than
 * any function that sets records aside or sweeps them (the poller, the Offline confirmation, the
 * notices function) may run, with a margin; checked against their timeouts at synth
 * (infra/leases.ts).
 */
export const SET_ASIDE_TELL_LEASE_MS = 5 * 60_000;

/** The most owed entries of an account one sweep reads and tells: the rest wait for the next run. */
export const SET_ASIDE_SWEEP_ENTRIES = 100;

export interface SetAsideDependencies {
  records: SetAsideRecords;
  /** Absent where the stage has no ops topic (a test's bare environment): kept and logged, never marked told. */
  ops?: OpsChannel;
  observer: Observer;
  logger: StructuredLogger;
  /** The business clock: when a record was set aside and ops told. */
  now: () => number;
  /** The real clock the claims to tell are timed on: never the local mode's fast `now`. */
  wallClock: () => number;
}

/**
 * Sets records aside: what AWS refused for good is kept with its reason, observed (the metric
 * `RecordsSetAside` and an error line in Lambda) and told to ops, once per record, so that the
 * step can let everything else go and the cursor move on.
 *
 * Once: each entry is noted owed, kept, then claimed (a conditional write, SET_ASIDE_TELL_LEASE_MS
 * on the wall clock), and a call tells ops only of the entries it claimed, then marks them told. Of
 * two calls with the same entries, each entry is told by one. A teller that dies between its claim
 * and the mark leaves the entry owed and claimed: a later `put` of it, or the notices function's
 * sweep (`tellOwed`, as there may be no later put), takes the claim over once its lease has run out
 * and tells it. The one repeat left: a death after the topic took the notice and before the mark;
 * the notice's `notice_id` names its entries, so a subscriber can drop it.
 */
export class SetAside {
  constructor(private readonly deps: SetAsideDependencies) {}

  async put(entries: readonly SetAsideEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const { records, ops, observer, logger, now } = this.deps;
    if (!ops) {
      const untold = await records.add(entries, now());
      for (const entry of untold) observer.observe({ type: "record-set-aside", ...idsOf(entry) });
      if (untold.length > 0)
        logger.warn("records set aside, and no ops topic to tell", { count: untold.length });
      return;
    }
    // Owed before it is kept: whatever happens from here, the sweep finds it until ops are told.
    await records.owe(entries);
    const claimed = await this.#claim(await this.#untold(entries));
    for (const entry of claimed) observer.observe({ type: "record-set-aside", ...idsOf(entry) });
    await this.#tell(ops, claimed);
  }

  /**
   * The sweep of one account (the notices function, every few minutes): tells ops of the entries
   * still owed whose teller died (their claim past its lease, or never made), at most
   * SET_ASIDE_SWEEP_ENTRIES a run. An owed entry that is told already is only cleared. Returns how
   * many it told.
   */
  async tellOwed(account: string): Promise<number> {
    const { records, ops } = this.deps;
    if (!ops) return 0;
    const owed = await records.owed(account, SET_ASIDE_SWEEP_ENTRIES);
    if (owed.length === 0) return 0;
    const claimed = await this.#claim(await this.#untold(owed));
    await this.#tell(ops, claimed);
    return claimed.length;
  }

  /**
   * Keeps the entries (a no-op for those kept already, which keep their first time and reason; for
   * one whose put died before keeping it, the sweep keeps it) and returns those ops have not been
   * told of; those they have are no longer owed.
   */
  async #untold(entries: readonly SetAsideEntry[]): Promise<StoredSetAside[]> {
    const { records, now } = this.deps;
    const untold = await records.add(entries, now());
    const untoldIds = new Set(untold.map(setAsideIdentity));
    const told = entries.filter((entry) => !untoldIds.has(setAsideIdentity(entry)));
    if (told.length > 0) await records.markTold(told, now());
    return untold;
  }

  #claim(untold: readonly StoredSetAside[]): Promise<StoredSetAside[]> {
    if (untold.length === 0) return Promise.resolve([]);
    return this.deps.records.claimTelling(untold, this.deps.wallClock(), SET_ASIDE_TELL_LEASE_MS);
  }

  /** One notice per account of what this call claimed, each marked once the topic took it. */
  async #tell(ops: OpsChannel, claimed: readonly StoredSetAside[]): Promise<void> {
    for (const [account, ofAccount] of groupBy(claimed, (entry) => entry.account)) {
      await ops.tell(setAsideNotice(account, ofAccount));
      await this.deps.records.markTold(ofAccount, this.deps.now());
    }
  }
}

function idsOf(entry: StoredSetAside) {
  const { setAsideAtMs: _at, tellClaimedAtMs: _claimed, toldAtMs: _told, ...ids } = entry;
  return ids;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}
