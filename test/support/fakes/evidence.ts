import {
  type EvidenceJob,
  evidenceJobSchema,
  type ParkedEvidence,
  type ParkedJob,
} from "@fleet-alerts/core/evidence";

/** A G-sensor alert's evidence job: channel 1, half a minute each side. */
export function gsensorJob(
  account: string,
  serialno: bigint | number,
  deviceid: string,
  eventMs: number,
): EvidenceJob {
  return evidenceJobSchema.parse({
    version: 1,
    alertId: `${account}:${serialno}:shock`,
    account,
    ruleId: "shock",
    deviceid,
    serialno: String(serialno),
    eventtime: new Date(eventMs).toISOString(),
    channels: [1],
    secondsBefore: 30,
    secondsAfter: 30,
    severity: "critical",
    event: { serialno: String(serialno), deviceid, appdevid: 16 },
  });
}

const keyOf = ({ job }: Pick<ParkedJob, "job">) => `${job.account}\u0000${job.deviceid}\u0000${job.alertId}`;

/**
 * Parked evidence jobs in memory, as ParkedJobStore keeps them: a second park of the same job keeps
 * the first, a device's jobs are its own whatever its id, pages of `pageSize`. Counts the device
 * queries (one Query each in DynamoDB), and fails the next `failRemovals` removals (a crash there).
 */
export class FakeParkedEvidence implements ParkedEvidence {
  readonly #jobs = new Map<string, ParkedJob>();
  deviceQueries = 0;
  failRemovals = 0;
  pageSize = 2;

  async park(parked: Omit<ParkedJob, "atRiskNoticeSent">): Promise<ParkedJob> {
    const kept = this.#jobs.get(keyOf(parked)) ?? { ...parked, atRiskNoticeSent: false };
    this.#jobs.set(keyOf(parked), kept);
    return { ...kept };
  }

  async anyOf(account: string): Promise<boolean> {
    return [...this.#jobs.values()].some((parked) => parked.job.account === account);
  }

  ofDevice(account: string, deviceid: string): AsyncIterable<ParkedJob[]> {
    this.deviceQueries++;
    return this.#pages((job) => job.account === account && job.deviceid === deviceid);
  }

  ofAccount(account: string): AsyncIterable<ParkedJob[]> {
    return this.#pages((job) => job.account === account);
  }

  async remove(parked: ParkedJob): Promise<void> {
    if (this.failRemovals > 0) {
      this.failRemovals--;
      throw new Error("crash before the parked item is removed");
    }
    this.#jobs.delete(keyOf(parked));
  }

  async markAtRiskNoticeSent(parked: ParkedJob): Promise<void> {
    const kept = this.#jobs.get(keyOf(parked));
    if (kept) kept.atRiskNoticeSent = true;
  }

  /** The jobs parked now, by alert id. */
  alertIds(): string[] {
    return [...this.#jobs.values()].map((parked) => parked.job.alertId).sort();
  }

  async *#pages(matches: (job: EvidenceJob) => boolean): AsyncGenerator<ParkedJob[]> {
    const jobs = [...this.#jobs.values()].filter((parked) => matches(parked.job));
    for (let start = 0; start < jobs.length; start += this.pageSize)
      yield jobs.slice(start, start + this.pageSize).map((parked) => ({ ...parked }));
  }
}
