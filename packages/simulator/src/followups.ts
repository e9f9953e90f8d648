/**
 * What a device does some time after an event (an SD backup, Trigger out, the Reboot that repairs
 * a disk): run at the first tick that reaches them, dropped when the power goes off.
 */

interface FollowUp {
  atMs: number;
  run(ms: number): void;
}

export class FollowUps {
  private pending: FollowUp[] = [];

  schedule(atMs: number, run: (ms: number) => void): void {
    this.pending.push({ atMs, run });
  }

  /** Runs, in the order they were scheduled, those due by `ms`; any they schedule wait for a later tick. */
  runDue(ms: number): void {
    if (!this.pending.some((followUp) => followUp.atMs <= ms)) return;
    const due = this.pending.filter((followUp) => followUp.atMs <= ms);
    this.pending = this.pending.filter((followUp) => followUp.atMs > ms);
    for (const followUp of due) followUp.run(ms);
  }

  clear(): void {
    this.pending = [];
  }
}
