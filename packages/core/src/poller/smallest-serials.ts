/**
 * The `capacity` smallest serial numbers offered, once each, with what came with each (the first
 * offer of a serial wins): how an answer of any length and in any order is read into a bounded
 * page. Offers are kept unsorted up to twice the capacity, then cut back to the capacity, so an
 * offer costs a map insertion and, amortized, a sort's share; past the capacity, a serial above
 * every kept one is turned away at once (the common case of an answer in ascending order).
 */
export class SmallestSerials<T> {
  #kept = new Map<bigint, T>();
  /** The largest kept serial, once the capacity has been reached: what is above it is turned away. */
  #ceiling: bigint | undefined;
  #overflowed = false;

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new RangeError("capacity must be a positive integer");
  }

  /** Whether a serial was turned away: the kept ones are the smallest, not all, of those offered. */
  get overflowed(): boolean {
    return this.#overflowed;
  }

  offer(serial: bigint, item: T): void {
    if (this.#kept.has(serial)) return;
    if (this.#ceiling !== undefined && serial > this.#ceiling) {
      this.#overflowed = true;
      return;
    }
    this.#kept.set(serial, item);
    if (this.#kept.size >= 2 * this.capacity) this.#cut();
  }

  has(serial: bigint): boolean {
    return this.#kept.has(serial);
  }

  /** The kept serials and their items, in ascending order. */
  ascending(): [bigint, T][] {
    this.#cut();
    return [...this.#kept];
  }

  #cut(): void {
    const sorted = [...this.#kept].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (sorted.length > this.capacity) {
      sorted.length = this.capacity;
      this.#overflowed = true;
    }
    this.#kept = new Map(sorted);
    if (sorted.length === this.capacity) this.#ceiling = sorted.at(-1)?.[0];
  }
}
