/**
 * Lambda's CPU share, imposed in this process on one kind of work: the poll handler's. Lambda gives
 * a function CPU in proportion to its memory ("at 1,769 MB, a function has the equivalent of one
 * vCPU"), through the kernel's CFS bandwidth control: each period the function may run for its
 * quota (128 MB: 128/1,769 of the period, about a 14th) and is then held until the next. This
 * machine runs the poller at a whole core; the bench's latency modes run it here as Lambda would.
 *
 * How: every callback and promise reaction that runs in a throttled invocation's async context
 * (AsyncLocalStorage, which follows it through timers, sockets and promises) is timed with
 * `process.cpuUsage()` and charged to the current period; once the period's quota is spent, the
 * thread is blocked (`Atomics.wait`) until the period that has quota left, as CFS holds a
 * throttled cgroup. CPU spent outside the invocations (the in-process emulators and simulator, the
 * other handlers, the bench's own reader) is never charged.
 *
 * Where it is pessimistic: a block holds the whole thread, so the emulators and the simulator,
 * which serve the poller's requests in this process, wait out the poller's throttle instead of
 * working meanwhile as remote services would; so does every other loop here (the bench's
 * subscriber reads its alerts late by at most a period). The hooks' own cost inside an invocation
 * is charged, and stretched with it (measured: a poll's CPU 15 to 20% higher with them on). CPU of other threads (V8's
 * collector helpers) while a poll callback runs is charged to it, as a cgroup would.
 * Where it is optimistic: Lambda's period is not documented; PERIOD_MS is the kernel's default, so a
 * short burst (under a period's quota, about 7 ms at 128 MB) runs at full speed as it would under
 * CFS; a Lambda container's own overheads (the runtime's event loop, its API calls) are not here.
 */
import { AsyncLocalStorage, createHook } from "node:async_hooks";

/** AWS: "at 1,769 MB, a function has the equivalent of one vCPU"; below, a share in proportion. */
export const MB_PER_VCPU = 1_769;
/** CFS's default period (cpu.cfs_period_us, 100 ms); Lambda does not publish its own. */
const PERIOD_MS = 100;

export interface CpuShareFigures {
  /** CPU time the throttled work used, in ms (at this machine's speed). */
  cpuMs: number;
  /** Time the thread was held for the share, in ms. */
  heldMs: number;
}

export interface CpuShare {
  /** Runs `work` (and everything it starts) at the share. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** What the throttled work used and was held so far. */
  figures(): CpuShareFigures;
  /** Stops timing (the hooks cost every promise of the process, throttled or not). */
  stop(): void;
}

/** A throttle to `memoryMb`'s CPU share; none at or above a whole vCPU. */
export function cpuShareOf(memoryMb: number): CpuShare {
  const share = Math.min(1, memoryMb / MB_PER_VCPU);
  const quotaMs = PERIOD_MS * share;
  const throttled = new AsyncLocalStorage<true>();
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  let periodStartMs = performance.now();
  let usedMs = 0;
  const totals: CpuShareFigures = { cpuMs: 0, heldMs: 0 };

  /** Charges `cpuMs` to the current period, and holds the thread while the quota is overdrawn. */
  const charge = (cpuMs: number) => {
    totals.cpuMs += cpuMs;
    if (share >= 1) return;
    const elapsedPeriods = Math.floor((performance.now() - periodStartMs) / PERIOD_MS);
    // Unused quota does not carry over (CFS without burst); an overdraft does, as debt.
    usedMs = Math.max(0, usedMs - elapsedPeriods * quotaMs) + cpuMs;
    periodStartMs += elapsedPeriods * PERIOD_MS;
    if (usedMs <= quotaMs) return;
    const periodsOwed = Math.ceil((usedMs - quotaMs) / quotaMs);
    const holdMs = periodStartMs + periodsOwed * PERIOD_MS - performance.now();
    if (holdMs > 0) {
      Atomics.wait(sleeper, 0, 0, holdMs);
      totals.heldMs += holdMs;
    }
    usedMs -= periodsOwed * quotaMs;
    periodStartMs += periodsOwed * PERIOD_MS;
  };
  const cpuSince = (start: NodeJS.CpuUsage) => {
    const { user, system } = process.cpuUsage(start);
    return (user + system) / 1000;
  };

  // The slice being timed: the outermost callback of throttled work now running (nested ones are in it).
  let open: { asyncId: number; start: NodeJS.CpuUsage } | undefined;
  const hook = createHook({
    before(asyncId) {
      if (open === undefined && throttled.getStore() === true) open = { asyncId, start: process.cpuUsage() };
    },
    after(asyncId) {
      if (open?.asyncId !== asyncId) return;
      const cpuMs = cpuSince(open.start);
      open = undefined;
      charge(cpuMs);
    },
  }).enable();

  return {
    run(work) {
      // The invocation's synchronous start runs in its caller's callback, not in one of its own.
      const start = process.cpuUsage();
      const running = throttled.run(true, work);
      charge(cpuSince(start));
      return running;
    },
    figures: () => ({ cpuMs: Math.round(totals.cpuMs), heldMs: Math.round(totals.heldMs) }),
    stop: () => hook.disable(),
  };
}
