import type { AccountSettings, PollerDependencies, PollSummary } from "./dependencies.js";
import { type ChainPoll, failedLagSeconds, pollAccount, type TickCarry } from "./poll-account.js";

export interface AccountPoller {
  settings: AccountSettings;
  deps: PollerDependencies;
  /**
   * The rule states as this poller's last poll left them, kept from poll to poll in a warm
   * container: read again only when another poll has moved the cursor. Absent: a new one per poll.
   */
  carry?: TickCarry;
}

export interface RunOptions {
  /** Epoch ms after which no poll starts a new chunk (the Lambda deadline less a margin). */
  deadlineMs: number;
  /** Epoch ms at which the invocation ends (its Lambda time-out): each lease holds past it. */
  endsAtMs: number;
  /** The chain this poll belongs to (a run of one account); none: a poll on its own. */
  chain?: ChainPoll;
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
 * Polls every account once, side by side; returns one summary per account. A slow account (a
 * device cloud that answers in 20 s) or a failing one never delays another's poll. A failed
 * account's cursor stays (its next poll tries again); the failures are raised once every poll has
 * ended.
 */
export async function runPollers(
  pollers: readonly AccountPoller[],
  options: RunOptions,
): Promise<PollSummary[]> {
  const failures: PollFailure[] = [];
  const outcomes = await Promise.all(
    pollers.map(async ({ settings, deps, carry }) => {
      try {
        return await pollAccount(settings, deps, {
          deadlineMs: options.deadlineMs,
          endsAtMs: options.endsAtMs,
          ...(carry && { carry }),
          ...(options.chain && { chain: options.chain }),
        });
      } catch (error) {
        const { account } = settings;
        const lagSeconds = failedLagSeconds(deps.lock, account, deps.now());
        deps.logger.error("poll failed; the cursor stays where it was", {
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
