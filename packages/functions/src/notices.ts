import { runNotices } from "@fleet-alerts/core/notices";
import { buildNoticesRuntime } from "./notices-runtime.js";
import { lambdaHandler, logger } from "./observability.js";
import { cachedOnSuccess } from "./once.js";
import type { RuntimeOverrides } from "./runtime.js";
import { withShareLinkSecret } from "./secrets.js";

/**
 * The scheduled notices function (every 5 minutes): quiet-hour summaries, daily digests and the
 * SMS-cap summaries, each sent once (core's claims), and the sweep of set-aside notices a crash
 * left owed to ops. Thin: the runtime is built once per container, the work is core's
 * `runNotices`; a failed notice fails the run (the errors alarm), the rest sent.
 */
export function createNoticesHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: Pick<RuntimeOverrides, "now" | "wallClock" | "logger" | "observer"> = {},
) {
  const getRuntime = cachedOnSuccess(() =>
    withShareLinkSecret(env).then((resolved) => buildNoticesRuntime(resolved, options)),
  );
  return lambdaHandler(async (_event: unknown, _context: unknown) => {
    const summary = await runNotices(await getRuntime());
    // Counts only: recipients, texts and links stay out of the logs.
    (options.logger ?? logger).info("notices run", { ...summary });
    return summary;
  });
}

export const handler = createNoticesHandler(process.env);
