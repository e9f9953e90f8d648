import type { Observer, StructuredLogger } from "@fleet-alerts/core";
import {
  type OpsChannel,
  type OpsNotice,
  SetAside,
  type SetAsideEntry,
  type SetAsideRecords,
  type StoredSetAside,
} from "@fleet-alerts/core/setaside";

const keyOf = (entry: SetAsideEntry) =>
  [entry.account, entry.serialno, entry.ruleId, entry.step, entry.targetId ?? ""].join("\u0000");

/** Set-aside records in memory, once each, as the table keeps them. */
export class FakeSetAsideRecords implements SetAsideRecords {
  readonly #entries = new Map<string, StoredSetAside>();

  async add(entries: readonly SetAsideEntry[], nowMs: number): Promise<StoredSetAside[]> {
    const stored = entries.map((entry) => {
      const kept = this.#entries.get(keyOf(entry)) ?? { ...entry, setAsideAtMs: nowMs };
      this.#entries.set(keyOf(entry), kept);
      return kept;
    });
    return [...new Map(stored.map((entry) => [keyOf(entry), entry])).values()].filter(
      (entry) => entry.toldAtMs === undefined,
    );
  }

  async markTold(entries: readonly SetAsideEntry[], nowMs: number): Promise<void> {
    for (const entry of entries) {
      const kept = this.#entries.get(keyOf(entry));
      if (kept && kept.toldAtMs === undefined) this.#entries.set(keyOf(entry), { ...kept, toldAtMs: nowMs });
    }
  }

  async list(account: string, limit: number): Promise<StoredSetAside[]> {
    return this.all()
      .filter((entry) => entry.account === account)
      .slice(0, limit);
  }

  all(): StoredSetAside[] {
    return [...this.#entries.values()];
  }
}

/** The ops topic in memory: every notice told. */
export class FakeOpsChannel implements OpsChannel {
  readonly notices: OpsNotice[] = [];
  async tell(notice: OpsNotice): Promise<void> {
    this.notices.push(notice);
  }
}

/** A SetAside over the fakes, with them to look at. */
export function fakeSetAside(deps: { observer: Observer; logger: StructuredLogger; now: () => number }) {
  const records = new FakeSetAsideRecords();
  const ops = new FakeOpsChannel();
  return { setAside: new SetAside({ records, ops, ...deps }), records, ops };
}
