import {
  type AccountLease,
  type Cursors,
  FencedError,
  type HeldLease,
  type LeaseTake,
} from "@fleet-alerts/core/cursor";

/** Cursors in memory, as CursorStore keeps them: forward only, moved only from the value read, fenced. */
export class FakeCursors implements Cursors {
  readonly #cursors = new Map<string, { serialno: bigint; fence?: number }>();

  async read(account: string): Promise<bigint | undefined> {
    return this.#cursors.get(account)?.serialno;
  }

  async advance(
    account: string,
    from: bigint | undefined,
    to: bigint,
    _nowMs: number,
    epoch: number,
  ): Promise<boolean> {
    if (from !== undefined && to <= from) throw new RangeError("the cursor only moves forward");
    const cursor = this.#cursors.get(account);
    if (cursor?.fence !== undefined && cursor.fence > epoch) throw new FencedError(account, epoch, "cursor");
    if (cursor?.serialno !== from) return false;
    this.#cursors.set(account, { serialno: to, fence: epoch });
    return true;
  }
}

interface Lease {
  token?: string;
  expiresAtMs?: number;
  epoch: number;
}

/**
 * The per-account lease in memory, as AccountLock keeps it: taken when free, expired, or handed
 * over to the take's `handedOverBy`; a new epoch per take. Times are the wall clock the poller passes.
 */
export class FakeAccountLease implements AccountLease {
  readonly #leases = new Map<string, Lease>();
  readonly #caughtUpAtMs = new Map<string, number>();
  /** Every take, in order: who took it, with what epoch. */
  readonly takes: HeldLease[] = [];

  /** Who holds the account's lease now (its token), if anyone, as of `nowMs` (default: ever). */
  holder(account: string, nowMs = Number.NEGATIVE_INFINITY): string | undefined {
    const lease = this.#leases.get(account);
    return lease?.expiresAtMs !== undefined && lease.expiresAtMs >= nowMs ? lease.token : undefined;
  }

  async acquire(account: string, take: LeaseTake): Promise<HeldLease | undefined> {
    const lease = this.#leases.get(account) ?? { epoch: 0 };
    const free = lease.expiresAtMs === undefined || lease.expiresAtMs < take.nowMs;
    if (!free && (take.handedOverBy === undefined || lease.token !== take.handedOverBy)) return undefined;
    const held = { account, token: take.token, epoch: lease.epoch + 1, untilMs: take.untilMs };
    this.#leases.set(account, { token: take.token, expiresAtMs: take.untilMs, epoch: held.epoch });
    this.takes.push(held);
    return held;
  }

  async release(lease: HeldLease, caughtUpAtMs?: number): Promise<void> {
    if (caughtUpAtMs !== undefined) this.#caughtUpAtMs.set(lease.account, caughtUpAtMs);
    this.#giveUp(lease.account, lease.token);
  }

  handOver(lease: HeldLease, caughtUpAtMs?: number): void {
    if (caughtUpAtMs !== undefined) this.#caughtUpAtMs.set(lease.account, caughtUpAtMs);
  }

  async releaseHandedOver(account: string, token: string, caughtUpAtMs: number): Promise<void> {
    this.#caughtUpAtMs.set(account, caughtUpAtMs);
    this.#giveUp(account, token);
  }

  caughtUp(account: string, atMs: number): void {
    this.#caughtUpAtMs.set(account, atMs);
  }

  lastCaughtUpMs(account: string): number | undefined {
    return this.#caughtUpAtMs.get(account);
  }

  #giveUp(account: string, token: string): void {
    const lease = this.#leases.get(account);
    if (lease?.token === token) this.#leases.set(account, { epoch: lease.epoch });
  }
}
