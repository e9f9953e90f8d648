import type { StructuredLogger } from "@fleet-alerts/core";
import { deliverWebhook, webhookJobSchema } from "@fleet-alerts/core/webhooks";
import { logger } from "./observability.js";
import { withShareLinkSecret } from "./secrets.js";
import { sqsRecordHandler } from "./sqs-handler.js";
import { buildWebhookRuntime, retryLater, type WebhookOverrides } from "./webhook-runtime.js";

/**
 * The webhook function: one WebhookJob per message (an alert for one webhook, Slack or Teams target),
 * ten side by side. A failed delivery comes back after a growing delay (its visibility extended: 30 s,
 * 60 s, 120 s...) and, after the queue's maxReceiveCount, goes to the DLQ, whose alarm tells ops.
 * Log lines carry ids and outcomes only: never a URL, secret, payload or link.
 */
export function createWebhookHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: WebhookOverrides & { logger?: StructuredLogger } = {},
) {
  const log = options.logger ?? logger;
  return sqsRecordHandler(
    () => withShareLinkSecret(env).then((resolved) => buildWebhookRuntime(resolved, options)),
    async (record, { config, deps, sqs }) => {
      const job = webhookJobSchema.parse(JSON.parse(record.body));
      const ids = { account: job.account, alertId: job.alertId, target: job.targetId };
      const receives = Number(record.attributes.ApproximateReceiveCount ?? "1");
      try {
        const result = await deliverWebhook(job, deps);
        log[result.outcome === "delivered" || result.outcome === "duplicate" ? "info" : "warn"](
          "webhook job handled",
          { ...ids, ...result, receives },
        );
      } catch (error) {
        const final = receives >= config.WEBHOOK_MAX_RECEIVES;
        log[final ? "error" : "warn"]("webhook delivery failed", {
          ...ids,
          reason: (error as Error).message,
          receives,
          final,
        });
        // The queue's own visibility timeout applies instead if this fails.
        await sqs.send(retryLater(config, record.receiptHandle, receives)).catch(() => undefined);
        throw error;
      }
    },
    { inParallel: true },
  );
}

export const handler = createWebhookHandler(process.env);
