import { ChangeMessageVisibilityCommand } from "@aws-sdk/client-sqs";
import type { StructuredLogger } from "@fleet-alerts/core";
import { SQS_MAX_VISIBILITY_SECONDS } from "@fleet-alerts/core/aws-limits";
import { deliverWebhook, webhookJobSchema } from "@fleet-alerts/core/webhooks";
import { logger } from "./observability.js";
import { withShareLinkSecret } from "./secrets.js";
import { sqsRecordHandler } from "./sqs-handler.js";
import { buildWebhookRuntime, type WebhookOverrides } from "./webhook-runtime.js";

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
        const backoff = Math.min(
          SQS_MAX_VISIBILITY_SECONDS,
          config.WEBHOOK_RETRY_BASE_SECONDS * 2 ** (receives - 1),
        );
        await sqs
          .send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: config.WEBHOOK_QUEUE_URL,
              ReceiptHandle: record.receiptHandle,
              VisibilityTimeout: backoff,
            }),
          )
          .catch(() => undefined); // the queue's own visibility timeout applies instead
        throw error;
      }
    },
    { inParallel: true },
  );
}

export const handler = createWebhookHandler(process.env);
