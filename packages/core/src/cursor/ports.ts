/** Where each account's poller has read up to: forward only, compare-and-set. */
export interface Cursors {
  read(account: string): Promise<bigint | undefined>;
  /**
   * Moves the cursor from `from` (the value this run read; undefined for the first run) to `to`,
   * fenced by the poll's lease `epoch` (cursor/fence.ts). False when the stored value is no longer
   * `from`: another run moved it. Throws a FencedError when a later epoch has moved it, and a
   * RangeError if `to <= from`.
   */
  advance(
    account: string,
    from: bigint | undefined,
    to: bigint,
    nowMs: number,
    epoch: number,
  ): Promise<boolean>;
}

/** A take of an account's lease, by a poll. Times are wall-clock epoch ms. */
export interface LeaseTake {
  /** This take's token (a new random id): the name the lease is handed over by. */
  token: string;
  nowMs: number;
  /** Until when it holds: past the end of the taking poll's invocation (LEASE_MARGIN_MS). */
  untilMs: number;
  /**
   * The token the chain's previous poll left the lease held under (poller/poll-timer.ts): that
   * lease is taken over even while it holds. Any other live lease refuses the take.
   */
  handedOverBy?: string;
}

/** The lease as a poll holds it. */
export interface HeldLease {
  account: string;
  token: string;
  /**
   * The fencing epoch: greater than every earlier take's of this account. Every write that decides
   * what the poll owes, or moves it forward, is refused once a later epoch has written its item
   * (cursor/fence.ts).
   */
  epoch: number;
  untilMs: number;
}

/**
 * One poller at a time per account: a lease taken for as long as the taking invocation can run (and
 * a margin), released at its end or handed over, by name, to the next poll of its chain.
 */
export interface AccountLease {
  /** The lease held, or undefined when another poll holds it (and did not hand it to `take.handedOverBy`). */
  acquire(account: string, take: LeaseTake): Promise<HeldLease | undefined>;
  /**
   * Gives the lease up if this take still holds it; with `caughtUpAtMs`, the run caught up then,
   * which the account's next run is told (`lastCaughtUpMs`).
   */
  release(lease: HeldLease, caughtUpAtMs?: number): Promise<void>;
  /**
   * Leaves the lease held for the chain's next poll, which takes it over by its token: no write.
   * It expires by itself if that poll never comes.
   */
  handOver(lease: HeldLease, caughtUpAtMs?: number): void;
  /**
   * The lease left held under `token` by a poll of a chain that has ended, released (the next
   * chain's polls need not wait for it to expire): one read, and a write only if it is still held so.
   */
  releaseHandedOver(account: string, token: string, caughtUpAtMs: number): Promise<void>;
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
