/**
 * The fence on an account's lease (docs/design/exactly-once.md, "The fence"). Every take of the
 * lease gets an epoch greater than any before it; every write that decides what a poll owes or
 * moves it forward carries the epoch of the poll that makes it, and is refused once a later epoch
 * has written the same item. DynamoDB (and the emulator the tests use) has no transaction across
 * the lease item and the items it guards, so the fence lives on each guarded item itself.
 */

/** The attribute that holds the latest epoch to have written a fenced item. */
const FENCE_ATTRIBUTE = "fence";

/**
 * A poll's deciding write was refused because a later take of the lease has written the same item,
 * or its lease ran out under it: the poll must stop, sending nothing more.
 */
export class FencedError extends Error {
  override readonly name = "FencedError";
  constructor(
    readonly account: string,
    readonly epoch: number,
    /** Where it was stopped: the write that was refused, or the check that found its time up. */
    readonly at: string,
  ) {
    super(`the poll of ${account} (lease epoch ${epoch}) was fenced at ${at}: a later poll holds the lease`);
  }
}

/** The parts of an update that fence it by `epoch`: its condition, its assignment and their placeholders. */
export interface FenceExpression {
  condition: string;
  assignment: string;
  names: Record<string, string>;
  values: Record<string, number>;
}

/**
 * The write holds only while no later epoch has written the item (an item never fenced, or fenced
 * by this epoch or an earlier one), and records this epoch on it.
 */
export function fenceExpression(epoch: number): FenceExpression {
  return {
    condition: "(attribute_not_exists(#fence) OR #fence <= :fence)",
    assignment: "#fence = :fence",
    names: { "#fence": FENCE_ATTRIBUTE },
    values: { ":fence": epoch },
  };
}

/** The epoch an item was last fenced by, if any: whether a refused write was fenced or refused otherwise. */
export function fenceOf(item: Readonly<Record<string, unknown>> | undefined): number | undefined {
  const fence = item?.[FENCE_ATTRIBUTE];
  return typeof fence === "number" ? fence : undefined;
}

/**
 * What a poll holding the lease at `epoch` checks before a write no condition can carry (a batch
 * write, a Publish): whether its time is up. The lease outlives the poll's invocation by a margin
 * (cursor/account-lock.ts), so a poll that checks in time has the margin left for its request to
 * land before any other poll can take the lease.
 */
export class LeaseGuard {
  constructor(
    readonly account: string,
    readonly epoch: number,
    /** The wall-clock instant past which this poll may start no such write: its invocation's end. */
    private readonly actsUntilMs: number,
    private readonly wallClock: () => number,
  ) {}

  /** Throws a FencedError naming `at` once the poll's time is up. */
  check(at: string): void {
    if (this.wallClock() >= this.actsUntilMs) throw this.fenced(at);
  }

  fenced(at: string): FencedError {
    return new FencedError(this.account, this.epoch, at);
  }
}
