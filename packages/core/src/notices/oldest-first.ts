/**
 * The oldest alerts (by event time) of a stream of any length, at most `max` of them, and how many
 * there were in all: a notice lists a readable few and counts the rest, so its message, and the
 * memory that builds it, stay the same size whatever the day or the night held.
 */
export class OldestFirst<T extends { eventtime: string }> {
  readonly #kept: T[] = [];
  #count = 0;

  constructor(private readonly max: number) {}

  add(item: T): void {
    this.#count++;
    // After every kept alert of the same time: equal times keep the order they came in.
    let low = 0;
    let high = this.#kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#kept[middle] as T).eventtime.localeCompare(item.eventtime) <= 0) low = middle + 1;
      else high = middle;
    }
    if (low >= this.max) return;
    this.#kept.splice(low, 0, item);
    if (this.#kept.length > this.max) this.#kept.pop();
  }

  /** How many were added. */
  get count(): number {
    return this.#count;
  }

  /** The oldest `max`, oldest first. */
  get listed(): readonly T[] {
    return this.#kept;
  }
}
