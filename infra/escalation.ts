import type { Stack } from "aws-cdk-lib";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import type { Config, Function as SstFunction } from "sst/constructs";
import type { Alerting } from "./alerting.js";
import { allow, ESCALATE_TIMEOUT, type FunctionBase, pipelineFunction } from "./functions.js";
import type { Queues } from "./queues.js";
import type { StageConfig } from "./stage-config.js";
import type { Storage } from "./storage.js";

export interface Escalation {
  /** Escalated alerts, to the level's people; each message carries a `level` attribute. */
  escalationTopic: sns.Topic;
  escalate: SstFunction;
}

/**
 * The SNS filter that gives a level's subscribers their level's messages only. The escalate
 * function publishes with the message attribute `level` (DataType String, "1" to "3").
 */
export const levelFilter = (level: number) => ({
  level: sns.SubscriptionFilter.stringFilter({ allowlist: [String(level)] }),
});

/**
 * The escalation topic and its level subscriptions, and the escalate function that works the
 * delayed jobs of the escalation queue: at fire time it checks the acknowledgement and publishes
 * to the next level, or does nothing.
 */
export function buildEscalation(
  stack: Stack,
  config: StageConfig,
  base: FunctionBase,
  { table }: Pick<Storage, "table">,
  { topicKey }: Pick<Alerting, "topicKey">,
  { escalationQueue }: Pick<Queues, "escalationQueue">,
  linkSecret: Config.Secret,
): Escalation {
  // One topic for every level, not one per level: a level is a filter, so adding a third level is a
  // stage-file change, not a new topic whose subscriptions must all be confirmed again.
  const escalationTopic = new sns.Topic(stack, "EscalationTopic", { masterKey: topicKey, enforceSSL: true });
  config.escalation.levels.forEach(({ emails, sms }, index) => {
    const filterPolicy = levelFilter(index + 1);
    for (const email of emails)
      escalationTopic.addSubscription(new subscriptions.EmailSubscription(email, { filterPolicy }));
    for (const number of sms)
      escalationTopic.addSubscription(new subscriptions.SmsSubscription(number, { filterPolicy }));
  });

  const escalate = pipelineFunction(stack, "Escalate", base, {
    handler: "packages/functions/src/escalate.handler",
    timeout: ESCALATE_TIMEOUT.toSeconds(),
    memorySize: 256,
    // It reads the alert from the table and publishes: no device-cloud secret, only the share-link
    // secret that derives the alert's link token (its grant was written when the alert went out).
    bind: [linkSecret],
    environment: { ...base.sourceMapped, ESCALATION_TOPIC_ARN: escalationTopic.topicArn },
  });
  // Ten at a time with partial batch responses: one failed job is retried alone.
  escalate.addEventSource(
    new SqsEventSource(escalationQueue, { batchSize: 10, reportBatchItemFailures: true }),
  );

  // ---- least privilege: named actions on named resources ----
  allow(escalate, ["dynamodb:GetItem", "dynamodb:UpdateItem"], [table.tableArn]);
  allow(escalate, ["sns:Publish"], [escalationTopic.topicArn]);
  allow(escalate, ["kms:GenerateDataKey", "kms:Decrypt"], [topicKey.keyArn]);
  // The next level's job, and a wait longer than SQS's 15-minute delay sent on in steps.
  allow(escalate, ["sqs:SendMessage"], [escalationQueue.queueArn]);
  return { escalationTopic, escalate };
}
