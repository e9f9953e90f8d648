import { PollFailedError } from "@fleet-alerts/core/poller";
import type { Context } from "aws-lambda";
import { lambdaHandler } from "./observability.js";
import { isTimerEvent, pollTimed, pollWatched, timerAccount } from "./poll-chain.js";
import { buildRuntime, type RuntimeOverrides } from "./runtime.js";
import { scheduledAccountEventSchema, scheduledRuntimes } from "./scheduled-account.js";

/**
 * The poller. Thin: a runtime is built once per container and account (a configuration error fails
 * every invocation with a message naming the variable; an account's secrets are read only when it
 * is polled), the work is core's. Two triggers: an account's watchdog schedule (`{"account": id}`,
 * every minute), which polls and starts the minute's chain, and the poll-timer queue, each message
 * one poll of a chain (poll-chain.ts).
 */
export function createPollHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides = {},
) {
  const runtimeFor = scheduledRuntimes(env, (resolved) => buildRuntime(resolved, options));
  return lambdaHandler(async (event: unknown, context: Pick<Context, "getRemainingTimeInMillis">) => {
    // When Lambda ends this invocation: the polls' leases hold past it (cursor/account-lock.ts).
    const endsAtMs = Date.now() + context.getRemainingTimeInMillis();
    const timesOf = (margin: number) => ({ deadlineMs: endsAtMs - margin * 1000, endsAtMs });
    if (isTimerEvent(event)) {
      // Each timer is one account's (a batch may hold several), polled side by side.
      const timed = await Promise.all(
        event.Records.map(async (record) => {
          const runtime = await runtimeFor(timerAccount(record.body));
          return pollTimed(runtime, record, timesOf(runtime.config.DEADLINE_MARGIN_SECONDS));
        }),
      );
      return timed.flat();
    }
    const { account } = scheduledAccountEventSchema.parse(event ?? {});
    const runtime = await runtimeFor(account);
    // Outside a stage (the local mode, the tests) the runtime holds every configured account.
    const polled = runtime.pollers.filter(
      (poller) => account === undefined || poller.settings.account === account,
    );
    if (polled.length === 0) throw new Error(`unknown account ${account}: not configured`);
    const startedMs = Date.now();
    const times = timesOf(runtime.config.DEADLINE_MARGIN_SECONDS);
    const outcomes = await Promise.all(
      polled.map((poller) => pollWatched(runtime, poller, times, startedMs)),
    );
    const failed = outcomes.flatMap((outcome) =>
      outcome.error instanceof PollFailedError ? [outcome.error] : [],
    );
    // A failed poll fails the run, so that Lambda's error metric counts it.
    if (failed.length > 0) throw new PollFailedError(failed.flatMap((error) => error.failures));
    return outcomes.flatMap((outcome) => outcome.summaries);
  });
}

export const handler = createPollHandler(process.env);
