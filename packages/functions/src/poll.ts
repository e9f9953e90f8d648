import { runPollers } from "@fleet-alerts/core/poller";
import type { Context } from "aws-lambda";
import { lambdaHandler, publishPollMetrics } from "./observability.js";
import { cachedOnSuccess } from "./once.js";
import { buildRuntime, type RuntimeOverrides } from "./runtime.js";
import { withSecrets } from "./secrets.js";

/**
 * The scheduled poller. Thin: the runtime is built once per container (a configuration error
 * fails every invocation with a message naming the variable), the work is core's `runPollers`.
 */
export function createPollHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides = {},
) {
  const getRuntime = cachedOnSuccess(() =>
    withSecrets(env).then((resolved) => buildRuntime(resolved, options)),
  );
  return lambdaHandler(async (_event: unknown, context: Pick<Context, "getRemainingTimeInMillis">) => {
    const { config, pollers, observer } = await getRuntime();
    const startedMs = Date.now();
    const deadlineMs = startedMs + context.getRemainingTimeInMillis() - config.DEADLINE_MARGIN_SECONDS * 1000;
    const summaries = await runPollers(pollers, {
      deadlineMs,
      ...(config.POLL_EVERY_SECONDS !== undefined && { pollEveryMs: config.POLL_EVERY_SECONDS * 1000 }),
    });
    for (const summary of summaries) {
      observer.observe({ type: "poll-summary", ...summary });
      publishPollMetrics(summary, Date.now() - startedMs);
    }
    return summaries;
  });
}

export const handler = createPollHandler(process.env);
