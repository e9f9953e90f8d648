/**
 * The poller as a stage runs it (infra/polling.ts): each account's watchdog every minute, which
 * polls and starts the minute's chain, and the poll-timer queue's event source mapping, each timer
 * one poll. Delays are real seconds (fauxqs makes a delayed message visible within ~20 ms), so a
 * chain polls every few real seconds whatever the simulator's speed.
 */
import type { SQSClient } from "@aws-sdk/client-sqs";
import { DEFAULT_DEADLINE_MARGIN_SECONDS } from "@fleet-alerts/core/config";
import { PollFailedError } from "@fleet-alerts/core/poller";
import { createPollHandler } from "@fleet-alerts/functions/poll";
import { timerAccount } from "@fleet-alerts/functions/poll-chain";
import { consumers, every, type LoopStep, lambdaContext } from "./delivery.js";

/** The watchdog's schedule, as deployed: every minute of real time. */
const WATCHDOG_EVERY_MS = 60_000;

/** The local mode's own poll time-out (a stage's is infra/stage-config.ts's POLLER_TIMEOUT_SECONDS). */
export const LOCAL_POLL_TIMEOUT_SECONDS = 30;

export interface PollInvocation {
  /** The watchdog's schedule (every minute) or a chain's timer. */
  trigger: "watchdog" | "timer";
  /** The accounts it was for: every one (the watchdog), or its timers' (one past its chain's minute is dropped unpolled). */
  accounts: readonly string[];
  durationMs: number;
}

export interface PollLoopOptions {
  env: Readonly<Record<string, string | undefined>>;
  overrides: Parameters<typeof createPollHandler>[1];
  accounts: readonly string[];
  /** Seconds between an account's polls; 60 or more: the watchdog's poll alone, no chain. */
  pollEverySeconds: number;
  timeoutSeconds: number;
  sqs: SQSClient;
  timerQueueUrl: string;
  /** Told of every poll-handler invocation once it ends, with its wall time. */
  onInvocation?: (invocation: PollInvocation) => void;
}

/**
 * How long before its time-out a local poll stops: a stage's default margin, or a third of a
 * shorter time-out (the chaos test's invocations of a few seconds), so that a poll still has time.
 */
function deadlineMarginSeconds(timeoutSeconds: number): number {
  return Math.max(1, Math.min(DEFAULT_DEADLINE_MARGIN_SECONDS, Math.floor(timeoutSeconds / 3)));
}

export function pollLoops(options: PollLoopOptions): LoopStep[] {
  const poll = createPollHandler(
    {
      ...options.env,
      ...(options.pollEverySeconds < 60 && { POLL_EVERY_SECONDS: String(options.pollEverySeconds) }),
      DEADLINE_MARGIN_SECONDS: String(deadlineMarginSeconds(options.timeoutSeconds)),
    },
    options.overrides,
  );
  const invoke = async (trigger: PollInvocation["trigger"], event: unknown, accounts: readonly string[]) => {
    const startedMs = Date.now();
    try {
      return await poll(event, lambdaContext(options.timeoutSeconds));
    } finally {
      options.onInvocation?.({ trigger, accounts, durationMs: Date.now() - startedMs });
    }
  };
  return [
    // The poll handler reports each poll's poll-summary, and logs a failed poll, itself. A failed
    // poll fails the run, which is not run again (as the schedule's target retries nothing): the
    // other accounts' chains are started already.
    every(WATCHDOG_EVERY_MS, () =>
      invoke("watchdog", {}, options.accounts).catch((error: unknown) => {
        if (!(error instanceof PollFailedError)) throw error;
      }),
    ),
    // One loop per account and one more: a catch-up poll of one account holds up no other's timer.
    ...consumers(options.accounts.length + 1, options.sqs, options.timerQueueUrl, async (event) => {
      await invoke(
        "timer",
        event,
        event.Records.flatMap((record) => timerAccount(record.body) ?? []),
      );
      return { batchItemFailures: [] };
    }),
  ];
}
