import { setTimeout as sleep } from "node:timers/promises";
import {
  type AccountSettings,
  POLL_COUNTS,
  type PollerDependencies,
  type PollSummary,
} from "./dependencies.js";
import { failedLagSeconds, pollAccount, TickCarry } from "./poll-account.js";
import { nextTickMs } from "./tick-schedule.js";

export interface AccountPoller {
  settings: AccountSettings;
  deps: PollerDependencies;
  /**
   * The rule states as this poller's last run left them, kept from run to run in a warm container
   * (and between the ticks of one run): read again only when another run has moved the cursor.
   * Absent: a new one per run (its ticks still share it).
   */
  carry?: TickCarry;
}

export interface RunOptions {
  /** Epoch ms by which every poll must have stopped (the Lambda deadline less a margin). */
  deadlineMs: number;
  /** Poll again at this interval until the deadline; once when absent (one poll per scheduled run). */
  pollEveryMs?: number;
  now?: () => number;
}

/** An account whose poll failed, and how far behind it is (undefined before any run caught up). */
export interface PollFailure {
  account: string;
  error: Error;
  lagSeconds?: number;
}

/** Raised after every account was polled when some of them failed, so the run counts as an error. */
export class PollFailedError extends Error {
  constructor(
    readonly failures: PollFailure[],
    /** The accounts that were polled: their figures still count (metrics, the lag alarm). */
    readonly summaries: PollSummary[] = [],
  ) {
    super(
      `poll failed for ${failures.map((failure) => `${failure.account} (${failure.error.message})`).join(", ")}`,
    );
    this.name = "PollFailedError";
  }
}

/**
 * Polls every account, once or at an interval until the deadline; returns one summary per account
 * (totals over the ticks). Each account runs its own loop side by side with the others: a slow
 * account (a device cloud that answers in 20 s) or a failing one never delays another's ticks.
 * A failed account stops its own loop (its cursor stays; the next scheduled run tries again); the
 * failures are raised once every loop has ended.
 */
export async function runPollers(
  pollers: readonly AccountPoller[],
  options: RunOptions,
): Promise<PollSummary[]> {
  const failures: PollFailure[] = [];
  const outcomes = await Promise.all(
    pollers.map(async (poller) => {
      try {
        return await pollOneAccount(poller, options);
      } catch (error) {
        const { account } = poller.settings;
        const lagSeconds = failedLagSeconds(poller.deps.lock, account, poller.deps.now());
        poller.deps.logger.error("poll failed; the cursor stays where it was", {
          account,
          error: (error as Error).message,
          ...(lagSeconds !== undefined && { lagSeconds }),
        });
        failures.push({ account, error: error as Error, ...(lagSeconds !== undefined && { lagSeconds }) });
        return undefined;
      }
    }),
  );
  const summaries = outcomes.filter((summary) => summary !== undefined);
  if (failures.length > 0) throw new PollFailedError(failures, summaries);
  return summaries;
}

/** One account's ticks: each starts pollEveryMs after the one before, or as soon as it ends if later. */
async function pollOneAccount(
  { settings, deps, carry = new TickCarry() }: AccountPoller,
  options: RunOptions,
) {
  const now = options.now ?? Date.now;
  let total: PollSummary | undefined;
  for (let plannedMs = now(); ; ) {
    total = addSummaries(total, await pollAccount(settings, deps, options.deadlineMs, carry));
    if (options.pollEveryMs === undefined) return total;
    const nextMs = nextTickMs(plannedMs, now(), options.pollEveryMs, options.deadlineMs);
    if (nextMs === undefined) return total;
    await sleep(Math.max(0, nextMs - now()));
    plannedMs = nextMs;
  }
}

function addSummaries(total: PollSummary | undefined, next: PollSummary): PollSummary {
  if (!total) return next;
  const sum = { ...next };
  for (const count of POLL_COUNTS) sum[count] = total[count] + next[count];
  return sum;
}
