import { PollFailedError, type PollSummary, runPollers } from "@fleet-alerts/core/poller";
import type { Context } from "aws-lambda";
import { lambdaHandler, publishFailedLags, publishPollMetrics } from "./observability.js";
import { buildRuntime, type RuntimeOverrides } from "./runtime.js";
import { scheduledAccountEventSchema, scheduledRuntimes } from "./scheduled-account.js";

/**
 * The scheduled poller. Thin: a runtime is built once per container and account (a configuration
 * error fails every invocation with a message naming the variable; an account's secrets are read
 * only when it is polled), the work is core's `runPollers`.
 */
export function createPollHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides = {},
) {
  const runtimeFor = scheduledRuntimes(env, (resolved) => buildRuntime(resolved, options));
  return lambdaHandler(async (event: unknown, context: Pick<Context, "getRemainingTimeInMillis">) => {
    const { account } = scheduledAccountEventSchema.parse(event ?? {});
    const { config, pollers, observer } = await runtimeFor(account);
    // Outside a stage (the local mode, the tests) the runtime holds every configured account.
    const polled =
      account === undefined ? pollers : pollers.filter((poller) => poller.settings.account === account);
    if (polled.length === 0) throw new Error(`unknown account ${account}: not configured`);
    const startedMs = Date.now();
    const deadlineMs = startedMs + context.getRemainingTimeInMillis() - config.DEADLINE_MARGIN_SECONDS * 1000;
    const report = (summaries: readonly PollSummary[]) => {
      for (const summary of summaries) {
        observer.observe({ type: "poll-summary", ...summary });
        publishPollMetrics(summary, Date.now() - startedMs);
      }
    };
    try {
      const summaries = await runPollers(polled, {
        deadlineMs,
        ...(config.POLL_EVERY_SECONDS !== undefined && { pollEveryMs: config.POLL_EVERY_SECONDS * 1000 }),
      });
      report(summaries);
      return summaries;
    } catch (error) {
      // The accounts that were polled still report (their lag alarm must not see missing data).
      if (error instanceof PollFailedError) report(error.summaries);
      if (error instanceof PollFailedError) publishFailedLags(error.failures);
      throw error;
    }
  });
}

export const handler = createPollHandler(process.env);
