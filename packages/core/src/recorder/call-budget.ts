/** The device-cloud calls one audit run may still make (`callsPerRun`), counted as they are made. */
export class CallBudget {
  #used = 0;

  constructor(readonly limit: number) {}

  get used(): number {
    return this.#used;
  }

  /** Whether `calls` more fit. */
  allows(calls: number): boolean {
    return this.#used + calls <= this.limit;
  }

  /** Counts one call about to be made. */
  spend(): void {
    this.#used++;
  }
}
