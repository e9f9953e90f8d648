import type { StructuredLogger } from "../logging.js";
import type { Observer } from "../observer.js";
import type { SetAsideEntry } from "./entry.js";
import { setAsideNotice } from "./notice.js";
import type { OpsChannel, SetAsideRecords } from "./ports.js";

export interface SetAsideDependencies {
  records: SetAsideRecords;
  /** Absent where the stage has no ops topic (a test's bare environment): kept and logged, never marked told. */
  ops?: OpsChannel;
  observer: Observer;
  logger: StructuredLogger;
  now: () => number;
}

/**
 * Sets records aside: what AWS refused for good is kept with its reason, observed (the metric
 * `RecordsSetAside` and an error line in Lambda) and told to ops, once per record, so that the
 * step can let everything else go and the cursor move on. Kept before ops are told and marked
 * after: a crash in between tells them again on the replay rather than never.
 */
export class SetAside {
  constructor(private readonly deps: SetAsideDependencies) {}

  async put(entries: readonly SetAsideEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const { records, ops, observer, logger, now } = this.deps;
    const untold = await records.add(entries, now());
    if (untold.length === 0) return;
    for (const entry of untold) {
      const { setAsideAtMs: _at, toldAtMs: _told, ...ids } = entry;
      observer.observe({ type: "record-set-aside", ...ids });
    }
    if (!ops) {
      logger.warn("records set aside, and no ops topic to tell", { count: untold.length });
      return;
    }
    for (const [account, ofAccount] of groupBy(untold, (entry) => entry.account))
      await ops.tell(setAsideNotice(account, ofAccount));
    await records.markTold(untold, now());
  }
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}
