/**
 * When each account was polled, in seconds from a start: the poll-chain tests record every poll
 * and then count them in windows (one chain polls every interval, two twice as often).
 */
export class PollTimes<Account extends string> {
  readonly #startedMs = Date.now();
  readonly #polls = new Map<Account, number[]>();

  /** Seconds since the start. */
  now(): number {
    return (Date.now() - this.#startedMs) / 1000;
  }

  record(account: Account): void {
    this.#polls.set(account, [...(this.#polls.get(account) ?? []), this.now()]);
  }

  /** Polls of `account` in [from, to) seconds. */
  count(account: Account, from: number, to: number): number {
    return (this.#polls.get(account) ?? []).filter((second) => second >= from && second < to).length;
  }

  /** The first poll of `account` after `second` (Infinity: none). */
  firstAfter(account: Account, second: number): number {
    return (this.#polls.get(account) ?? []).find((polled) => polled > second) ?? Number.POSITIVE_INFINITY;
  }

  async until(second: number): Promise<void> {
    while (this.now() < second) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
