import { escalationJobSchema, runEscalation } from "@fleet-alerts/core/escalation";
import { buildEscalateRuntime } from "./escalate-runtime.js";
import { logger, publishEscalationMetric } from "./observability.js";
import type { RuntimeOverrides } from "./runtime.js";
import { withShareLinkSecret } from "./secrets.js";
import { sqsRecordHandler } from "./sqs-handler.js";

/**
 * The escalate function: receives the delayed escalation jobs, ten at a time. Each level goes out
 * once (core's claim on the alert record), so jobs of one batch may run side by side, and a job
 * that fails comes back alone (partial batch response) until the queue's DLQ takes it.
 */
export function createEscalateHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides = {},
) {
  return sqsRecordHandler(
    () => withShareLinkSecret(env).then((resolved) => buildEscalateRuntime(resolved, options)),
    async (record, deps) => {
      const job = escalationJobSchema.parse(JSON.parse(record.body));
      logger.appendKeys({
        account: job.account,
        alertId: job.alertId,
        serialno: job.serialno,
        rule: job.ruleId,
      });
      const outcome = await runEscalation(job, deps);
      if (outcome === "escalated") publishEscalationMetric(job.account);
      (options.logger ?? logger).info("escalation job handled", { level: job.level, outcome });
    },
    { inParallel: true },
  );
}

export const handler = createEscalateHandler(process.env);
