/** Where each account's poller has read up to: forward only, compare-and-set. */
export interface Cursors {
  read(account: string): Promise<bigint | undefined>;
  /**
   * Moves the cursor from `from` (the value this run read; undefined for the first run) to `to`.
   * False when the stored value is no longer `from`: another run moved it. Throws if `to <= from`.
   */
  advance(account: string, from: bigint | undefined, to: bigint, nowMs: number): Promise<boolean>;
}

/** One poller at a time per account: a lease taken, renewed as the run goes, released at its end. */
export interface AccountLease {
  /** True if taken: free, expired, or already this owner's. */
  acquire(account: string, owner: string, nowMs: number): Promise<boolean>;
  /** False when the lease was lost (it expired and another run took it): the run must stop. */
  renew(account: string, owner: string, nowMs: number): Promise<boolean>;
  /** Gives the lease up if this owner still holds it. */
  release(account: string, owner: string): Promise<void>;
}
