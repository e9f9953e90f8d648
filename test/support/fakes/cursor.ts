import type { AccountLease, Cursors } from "@fleet-alerts/core/cursor";

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
  readonly #leases = new Map<string, { owner: string; expiresAtMs: number }>();

  constructor(private readonly leaseMs = 45_000) {}

  /** Who holds the account's lease now, if anyone. */
  holder(account: string): string | undefined {
    return this.#leases.get(account)?.owner;
  }

  async acquire(account: string, owner: string, nowMs: number): Promise<boolean> {
    const lease = this.#leases.get(account);
    if (lease && lease.expiresAtMs >= nowMs && lease.owner !== owner) return false;
    this.#leases.set(account, { owner, expiresAtMs: nowMs + this.leaseMs });
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

  caughtUp(account: string, atMs: number): void {
    this.#caughtUpAtMs.set(account, atMs);
  }

  lastCaughtUpMs(account: string): number | undefined {
    return this.#caughtUpAtMs.get(account);
  }
}
