import type { Observer, StructuredLogger } from "@fleet-alerts/core";
import {
  type OpsChannel,
  type OpsNotice,
  SetAside,
  type SetAsideEntry,
  type SetAsideRecords,
  type StoredSetAside,
  setAsideIdentity,
} from "@fleet-alerts/core/setaside";

/** Set-aside records in memory, once each, as the table keeps them, with the entries still owed. */
export class FakeSetAsideRecords implements SetAsideRecords {
  readonly #entries = new Map<string, StoredSetAside>();
  readonly #owed = new Map<string, SetAsideEntry>();

  async owe(entries: readonly SetAsideEntry[]): Promise<void> {
    for (const entry of entries) this.#owed.set(setAsideIdentity(entry), entry);
  }

  async add(entries: readonly SetAsideEntry[], nowMs: number): Promise<StoredSetAside[]> {
    const stored = entries.map((entry) => {
      const kept = this.#entries.get(setAsideIdentity(entry)) ?? { ...entry, setAsideAtMs: nowMs };
      this.#entries.set(setAsideIdentity(entry), kept);
      return kept;
    });
    return [...new Map(stored.map((entry) => [setAsideIdentity(entry), entry])).values()].filter(
      (entry) => entry.toldAtMs === undefined,
    );
  }

  async claimTelling(
    entries: readonly SetAsideEntry[],
    atMs: number,
    leaseMs: number,
  ): Promise<StoredSetAside[]> {
    return entries.flatMap((entry) => {
      const kept = this.#entries.get(setAsideIdentity(entry));
      if (!kept || kept.toldAtMs !== undefined) return [];
      if (kept.tellClaimedAtMs !== undefined && kept.tellClaimedAtMs > atMs - leaseMs) return [];
      const claimed = { ...kept, tellClaimedAtMs: atMs };
      this.#entries.set(setAsideIdentity(entry), claimed);
      return [claimed];
    });
  }

  async markTold(entries: readonly SetAsideEntry[], nowMs: number): Promise<void> {
    for (const entry of entries) {
      const kept = this.#entries.get(setAsideIdentity(entry));
      if (kept && kept.toldAtMs === undefined)
        this.#entries.set(setAsideIdentity(entry), { ...kept, toldAtMs: nowMs });
      this.#owed.delete(setAsideIdentity(entry));
    }
  }

  async owed(account: string, limit: number): Promise<SetAsideEntry[]> {
    return [...this.#owed.values()].filter((entry) => entry.account === account).slice(0, limit);
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

/** A SetAside over the fakes, with them to look at; claims on the real clock unless a test moves one. */
export function fakeSetAside(deps: {
  observer: Observer;
  logger: StructuredLogger;
  now: () => number;
  wallClock?: () => number;
}) {
  const records = new FakeSetAsideRecords();
  const ops = new FakeOpsChannel();
  const setAside = new SetAside({ records, ops, ...deps, wallClock: deps.wallClock ?? Date.now });
  return { setAside, records, ops };
}
