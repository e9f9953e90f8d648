import { SNSClient } from "@aws-sdk/client-sns";
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { incidentLink } from "@fleet-alerts/core/alerts";
import { SQS_MAX_VISIBILITY_SECONDS } from "@fleet-alerts/core/aws-limits";
import { awsJson, awsText } from "@fleet-alerts/core/aws-text";
import { parseEnv } from "@fleet-alerts/core/config";
import { SnsOpsChannel } from "@fleet-alerts/core/setaside";
import { derivedShareToken } from "@fleet-alerts/core/share";
import {
  type WebhookConfig,
  type WebhookDeliveryDeps,
  WebhookDeliveryStore,
  webhookEnvSchema,
} from "@fleet-alerts/core/webhooks";
import { awsClientConfig, tableRef } from "./runtime.js";
import { loadTargets, type SecretReader, targetResolver } from "./webhook-targets.js";

export interface WebhookRuntime {
  config: WebhookConfig;
  deps: WebhookDeliveryDeps;
  sqs: SQSClient;
}

export interface WebhookOverrides {
  now?: () => number;
  /** The real clock claims are timed on; Date.now unless a test moves it. */
  wallClock?: () => number;
  fetch?: typeof fetch;
  readSecrets?: SecretReader;
}

/** What the webhook function needs, built once per container from its environment. */
export async function buildWebhookRuntime(
  env: Readonly<Record<string, string | undefined>>,
  overrides: WebhookOverrides = {},
): Promise<WebhookRuntime> {
  const config = parseEnv(webhookEnvSchema, env);
  const targets = config.GROUPS_FILE ? await loadTargets(config.GROUPS_FILE) : {};
  const sns = new SNSClient(awsClientConfig(env, "SNS"));
  const sqs = new SQSClient(awsClientConfig(env, "SQS"));
  const { PUBLIC_BASE_URL: baseUrl, SHARE_LINK_SECRET: linkSecret } = config;
  const deps: WebhookDeliveryDeps = {
    deliveries: new WebhookDeliveryStore(tableRef(env, config.TABLE_NAME)),
    resolveTarget: targetResolver(env, targets, {
      allowLoopbackHttp: config.WEBHOOK_ALLOW_LOOPBACK_HTTP === "1",
      ...(overrides.readSecrets && { read: overrides.readSecrets }),
    }),
    // The poller granted the link when it published the alert; its token is derived again here.
    linkFor: (alertId) =>
      baseUrl && linkSecret ? incidentLink(baseUrl, derivedShareToken(linkSecret, alertId).token) : undefined,
    ops: new SnsOpsChannel(sns, config.OPS_TOPIC_ARN),
    deadLetter: async (job, reason) => {
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: config.WEBHOOK_DLQ_URL,
          MessageBody: awsJson(job),
          MessageAttributes: { reason: { DataType: "String", StringValue: awsText(reason) } },
        }),
      );
    },
    fetch: overrides.fetch ?? fetch,
    now: overrides.now ?? Date.now,
    wallClock: overrides.wallClock ?? Date.now,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  };
  return { config, deps, sqs };
}

/** The next receive after a growing delay: the first retry's, doubled each time, within SQS's ceiling. */
export const retryLater = (config: WebhookConfig, receiptHandle: string, receives: number) =>
  new ChangeMessageVisibilityCommand({
    QueueUrl: config.WEBHOOK_QUEUE_URL,
    ReceiptHandle: receiptHandle,
    VisibilityTimeout: Math.min(
      SQS_MAX_VISIBILITY_SECONDS,
      config.WEBHOOK_RETRY_BASE_SECONDS * 2 ** (receives - 1),
    ),
  });
