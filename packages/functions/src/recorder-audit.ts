import { runRecorderAudit } from "@fleet-alerts/core/recorder";
import type { Context } from "aws-lambda";
import { lambdaHandler } from "./observability.js";
import { buildRecorderAuditRuntime } from "./recorder-audit-runtime.js";
import type { RuntimeOverrides } from "./runtime.js";
import { scheduledAccountEventSchema, scheduledRuntimes } from "./scheduled-account.js";

/**
 * The scheduled recorder audit. Thin: a runtime per container and account (that account's secrets
 * only), the work is core's `runRecorderAudit`, account after account, each within its call budget
 * and the Lambda deadline less a margin. Its summaries are observations (recorder-audit-summary).
 */
export function createRecorderAuditHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides = {},
) {
  const runtimeFor = scheduledRuntimes(env, (resolved) => buildRecorderAuditRuntime(resolved, options));
  return lambdaHandler(async (event: unknown, context: Pick<Context, "getRemainingTimeInMillis">) => {
    const { account } = scheduledAccountEventSchema.parse(event ?? {});
    const { accounts, marginMs } = await runtimeFor(account);
    const audited =
      account === undefined ? accounts : accounts.filter((one) => one.settings.account === account);
    if (audited.length === 0) throw new Error(`unknown account ${account}: not configured`);
    const deadlineMs = Date.now() + context.getRemainingTimeInMillis() - marginMs;
    const summaries = [];
    for (const { settings, deps } of audited)
      summaries.push(await runRecorderAudit(settings, deps, deadlineMs));
    return summaries;
  });
}

export const handler = createRecorderAuditHandler(process.env);
