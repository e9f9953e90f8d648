import { setTimeout as sleep } from "node:timers/promises";
import {
  type AccountSettings,
  POLL_COUNTS,
  type PollerDependencies,
  type PollSummary,
} from "./dependencies.js";
import { pollAccount } from "./poll-account.js";

export interface AccountPoller {
  settings: AccountSettings;
  deps: PollerDependencies;
}

export interface RunOptions {
  /** Epoch ms by which every poll must have stopped (the Lambda deadline less a margin). */
  deadlineMs: number;
  /** Poll again at this interval until the deadline; once when absent (one poll per scheduled run). */
  pollEveryMs?: number;
  now?: () => number;
}

/** Raised after every account was polled when some of them failed, so the run counts as an error. */
export class PollFailedError extends Error {
  constructor(readonly failures: { account: string; error: Error }[]) {
    super(
      `poll failed for ${failures.map((failure) => `${failure.account} (${failure.error.message})`).join(", ")}`,
    );
    this.name = "PollFailedError";
  }
}

/**
 * Polls every account, once or at an interval until the deadline; returns one summary per account
 * (totals over the ticks). One account's failure does not keep the others from being polled.
 */
export async function runPollers(
  pollers: readonly AccountPoller[],
  options: RunOptions,
): Promise<PollSummary[]> {
  const now = options.now ?? Date.now;
  const totals = new Map<string, PollSummary>();
  const failures: { account: string; error: Error }[] = [];
  for (;;) {
    const tickStartedMs = now();
    for (const { settings, deps } of pollers) {
      try {
        const summary = await pollAccount(settings, deps, options.deadlineMs);
        totals.set(settings.account, addSummaries(totals.get(settings.account), summary));
      } catch (error) {
        deps.logger.error("poll failed; the cursor stays where it was", {
          account: settings.account,
          error: (error as Error).message,
        });
        failures.push({ account: settings.account, error: error as Error });
      }
    }
    if (options.pollEveryMs === undefined || failures.length > 0) break;
    const nextTickMs = tickStartedMs + options.pollEveryMs;
    if (nextTickMs >= options.deadlineMs) break;
    await sleep(Math.max(0, nextTickMs - now()));
  }
  if (failures.length > 0) throw new PollFailedError(failures);
  return [...totals.values()];
}

function addSummaries(total: PollSummary | undefined, next: PollSummary): PollSummary {
  if (!total) return next;
  const sum = { ...next };
  for (const count of POLL_COUNTS) sum[count] = total[count] + next[count];
  return sum;
}
