/** Where each account's poller has read up to: forward only, compare-and-set. */
export interface Cursors {
  read(account: string): Promise<bigint | undefined>;
  /**
   * Moves the cursor from `from` (the value this run read; undefined for the first run) to `to`.
   * False when the stored value is no longer `from`: another run moved it. Throws if `to <= from`.
   */
  advance(account: string, from: bigint | undefined, to: bigint, nowMs: number): Promise<boolean>;
}

/**
 * A poll of an account's chain (poller/poll-timer.ts): the chain, and when the poll was planned.
 * The chain's next poll takes the lease over from this one, which leaves it held instead of
 * writing its release: the next is planned only once this one has ended, so they never overlap.
 */
export interface ChainLink {
  chain: string;
  plannedMs: number;
}

/** One poller at a time per account: a lease taken, renewed as the run goes, released at its end. */
export interface AccountLease {
  /**
   * True if taken: free, expired, already this owner's, or (with `link`) left held by an earlier
   * poll of the same chain.
   */
  acquire(account: string, owner: string, nowMs: number, link?: ChainLink): Promise<boolean>;
  /** False when the lease was lost (it expired and another run took it): the run must stop. */
  renew(account: string, owner: string, nowMs: number): Promise<boolean>;
  /**
   * Gives the lease up if this owner still holds it; with `caughtUpAtMs`, the run caught up then,
   * which the account's next run is told (`lastCaughtUpMs`).
   */
  release(account: string, owner: string, caughtUpAtMs?: number): Promise<void>;
  /**
   * Leaves the lease held for the chain's next poll, which takes it over (`acquire` with a later
   * planned time): no write. It expires by itself if that poll never comes.
   */
  handOver(account: string, owner: string, caughtUpAtMs?: number): void;
  /**
   * The lease left held by a poll of `chain`, released (the chain has ended, and the next chain's
   * polls need not wait for it to expire): one read, and a write only if the chain still holds it.
   */
  releaseChain(account: string, chain: string, caughtUpAtMs: number): Promise<void>;
  /**
   * A poll that found nothing to read caught up at `atMs` without taking the lease: remembered in
   * this process only (such a poll writes nothing), for `lastCaughtUpMs`.
   */
  caughtUp(account: string, atMs: number): void;
  /**
   * When a run of the account last caught up, as this process last learned it (the lease it took
   * said so, or a run of its own released it so or found nothing to read): how far behind a run that fails is.
   */
  lastCaughtUpMs(account: string): number | undefined;
}
