import { Duration, type Stack } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as actions from "aws-cdk-lib/aws-cloudwatch-actions";
import type * as iam from "aws-cdk-lib/aws-iam";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import * as sqs from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import type { App, Config, Function as SstFunction } from "sst/constructs";
import { SQS_MAX_RETENTION_SECONDS } from "../packages/core/src/aws-limits.js";
import { WEBHOOK_MAX_RECEIVES } from "../packages/core/src/webhooks/config.js";
import { type Alerting, grantTellOps } from "./alerting.js";
import { allow, type FunctionBase, pipelineFunction } from "./functions.js";
import { runbook } from "./runbook.js";
import type { Storage } from "./storage.js";

export interface Webhooks {
  /** One WebhookJob per (alert, target), sent by the functions that publish alerts. */
  webhookQueue: sqs.Queue;
  webhookDlq: sqs.Queue;
  webhook: SstFunction;
}

// Ten POSTs side by side, each with a 10 s deadline, and the writes around them.
export const WEBHOOK_TIMEOUT = Duration.seconds(60);

/**
 * The webhook, Slack and Teams channel: a queue (DLQ after WEBHOOK_MAX_RECEIVES receives, alarm to
 * ops) and the webhook function that signs and POSTs each job. The targets' URLs and `whsec_`
 * secrets are SST secrets TARGET_<ID>_URL and TARGET_<ID>_SECRET, read at run time (`npx sst secrets
 * set TARGET_DEPOT_NORTH_URL https://…`): not bound one by one, as a hundred targets would be two
 * hundred bindings, but granted by their path.
 */
export function buildWebhooks(
  stack: Stack,
  base: FunctionBase,
  { table }: Pick<Storage, "table">,
  { opsTopic, topicKey }: Pick<Alerting, "opsTopic" | "topicKey">,
  linkSecret: Config.Secret,
  /** The stage's groups file, whose `targets` say each target's kind (none: no targets). */
  groupsFile: string | undefined,
): Webhooks {
  const queue = (id: string, props: sqs.QueueProps) =>
    new sqs.Queue(stack, id, { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true, ...props });
  const webhookDlq = queue("WebhookDlq", { retentionPeriod: Duration.seconds(SQS_MAX_RETENTION_SECONDS) });
  const webhookQueue = queue("WebhookQueue", {
    visibilityTimeout: Duration.seconds(WEBHOOK_TIMEOUT.toSeconds() * 6),
    retentionPeriod: Duration.days(4),
    deadLetterQueue: { queue: webhookDlq, maxReceiveCount: WEBHOOK_MAX_RECEIVES },
  });

  const webhook = pipelineFunction(stack, "Webhook", base, {
    handler: "packages/functions/src/webhook.handler",
    timeout: WEBHOOK_TIMEOUT.toSeconds(),
    memorySize: 256,
    // No device-cloud secret: only the share-link secret, to derive each alert's incident link.
    bind: [linkSecret],
    ...(groupsFile && { copyFiles: [{ from: groupsFile, to: "groups.json" }] }),
    environment: {
      ...base.sourceMapped,
      WEBHOOK_QUEUE_URL: webhookQueue.queueUrl,
      WEBHOOK_DLQ_URL: webhookDlq.queueUrl,
      OPS_TOPIC_ARN: opsTopic.topicArn,
      WEBHOOK_MAX_RECEIVES: String(WEBHOOK_MAX_RECEIVES),
      ...(groupsFile && { GROUPS_FILE: "groups.json" }),
    },
  });
  webhook.addEventSource(new SqsEventSource(webhookQueue, { batchSize: 10, reportBatchItemFailures: true }));

  // ---- least privilege: named actions on named resources ----
  // The targets' items only: their partitions are TARGET#<id> (state and deliveries).
  allow(
    webhook,
    ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
    [table.tableArn],
    {
      "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["TARGET#*"] },
    },
  );
  allow(webhook, ["sqs:SendMessage"], [webhookDlq.queueArn]); // a 4xx goes to the DLQ at once
  grantTellOps(webhook, { opsTopic, topicKey }); // a target disabled by its 410
  const app = stack.node.root as App;
  const parameters = [
    `/sst/${app.name}/${app.stage}/Secret/TARGET_*`,
    `/sst/${app.name}/.fallback/Secret/TARGET_*`,
  ].map((path) => `arn:${stack.partition}:ssm:${stack.region}:${stack.account}:parameter${path}`);
  allow(webhook, ["ssm:GetParameters"], parameters);
  NagSuppressions.addResourceSuppressions(
    webhook.role as iam.IRole,
    [
      {
        id: "AwsSolutions-IAM5",
        reason:
          "The targets' URL and signing-secret parameters (TARGET_<ID>_URL, TARGET_<ID>_SECRET), stage and fallback: one path per target would make the policy grow with the groups file.",
        // Whatever form the region and account take (literal or the stack's tokens).
        appliesTo: [
          {
            regex:
              "/^Resource::arn:<AWS::Partition>:ssm:[^:]+:[^:]+:parameter\\/sst\\/[^/]+\\/[^/]+\\/Secret\\/TARGET_\\*$/",
          },
        ],
      },
    ],
    true,
  );

  new cloudwatch.Alarm(stack, "WebhookDlqNotEmpty", {
    metric: webhookDlq.metricApproximateNumberOfMessagesVisible(),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    alarmDescription: `Webhook, Slack or Teams deliveries failed for good (see the webhook function's logs): fix the target, then redrive the DLQ.${runbook("webhookdlqnotempty")}`,
  }).addAlarmAction(new actions.SnsAction(opsTopic));
  return { webhookQueue, webhookDlq, webhook };
}

/** A function that publishes alerts sends their webhook jobs: WEBHOOK_QUEUE_URL and the grant. */
export function grantSendWebhookJobs(fn: SstFunction, { webhookQueue }: Pick<Webhooks, "webhookQueue">) {
  fn.addEnvironment("WEBHOOK_QUEUE_URL", webhookQueue.queueUrl);
  allow(fn, ["sqs:SendMessage"], [webhookQueue.queueArn]);
}
