import type { AccountLease, ChainLink, Cursors } from "@fleet-alerts/core/cursor";

/** Cursors in memory, as CursorStore keeps them: forward only, moved only from the value read. */
export class FakeCursors implements Cursors {
  readonly #serials = new Map<string, bigint>();

  async read(account: string): Promise<bigint | undefined> {
    return this.#serials.get(account);
  }

  async advance(account: string, from: bigint | undefined, to: bigint, _nowMs: number): Promise<boolean> {
    if (from !== undefined && to <= from) throw new RangeError("the cursor only moves forward");
    if (this.#serials.get(account) !== from) return false;
    this.#serials.set(account, to);
    return true;
  }
}

/** The per-account lease in memory, as AccountLock keeps it: taken when free, expired or already held. */
export class FakeAccountLease implements AccountLease {
  readonly #leases = new Map<string, { owner: string; expiresAtMs: number; link?: ChainLink }>();

  constructor(private readonly leaseMs = 45_000) {}

  /** Who holds the account's lease now, if anyone. */
  holder(account: string): string | undefined {
    return this.#leases.get(account)?.owner;
  }

  async acquire(account: string, owner: string, nowMs: number, link?: ChainLink): Promise<boolean> {
    const lease = this.#leases.get(account);
    const handedOver =
      link !== undefined && lease?.link?.chain === link.chain && lease.link.plannedMs < link.plannedMs;
    if (lease && lease.expiresAtMs >= nowMs && lease.owner !== owner && !handedOver) return false;
    this.#leases.set(account, { owner, expiresAtMs: nowMs + this.leaseMs, ...(link && { link }) });
    return true;
  }

  async renew(account: string, owner: string, nowMs: number): Promise<boolean> {
    if (this.#leases.get(account)?.owner !== owner) return false;
    this.#leases.set(account, { owner, expiresAtMs: nowMs + this.leaseMs });
    return true;
  }

  readonly #caughtUpAtMs = new Map<string, number>();

  async release(account: string, owner: string, caughtUpAtMs?: number): Promise<void> {
    if (this.#leases.get(account)?.owner !== owner) return;
    this.#leases.delete(account);
    if (caughtUpAtMs !== undefined) this.#caughtUpAtMs.set(account, caughtUpAtMs);
  }

  handOver(account: string, _owner: string, caughtUpAtMs?: number): void {
    if (caughtUpAtMs !== undefined) this.#caughtUpAtMs.set(account, caughtUpAtMs);
  }

  async releaseChain(account: string, chain: string, caughtUpAtMs: number): Promise<void> {
    this.#caughtUpAtMs.set(account, caughtUpAtMs);
    if (this.#leases.get(account)?.link?.chain === chain) this.#leases.delete(account);
  }

  caughtUp(account: string, atMs: number): void {
    this.#caughtUpAtMs.set(account, atMs);
  }

  lastCaughtUpMs(account: string): number | undefined {
    return this.#caughtUpAtMs.get(account);
  }
}
