import { SNSClient } from "@aws-sdk/client-sns";
import { SQSClient } from "@aws-sdk/client-sqs";
import { SnsAlertPublisher } from "@fleet-alerts/core/alerts";
import { escalateEnvSchema, parseEnv } from "@fleet-alerts/core/config";
import { type EscalationDependencies, EscalationStore } from "@fleet-alerts/core/escalation";
import { SqsSender } from "@fleet-alerts/core/queue";
import { derivedShareToken } from "@fleet-alerts/core/share";
import { logger, logObserver } from "./observability.js";
import { awsClientConfig, type RuntimeOverrides, tableRef } from "./runtime.js";

/**
 * What the escalate function needs, built once per container from its environment: the alert
 * records, the escalation topic and its own queue. No device cloud; the one secret is the
 * share-link secret, to put each alert's link back into its re-sent message.
 */
export function buildEscalateRuntime(
  env: Readonly<Record<string, string | undefined>>,
  overrides: RuntimeOverrides,
): EscalationDependencies {
  const config = parseEnv(escalateEnvSchema, env);
  return {
    escalations: new EscalationStore(tableRef(env, config.TABLE_NAME)),
    escalationPublisher: new SnsAlertPublisher(
      new SNSClient(awsClientConfig(env, "SNS")),
      config.ESCALATION_TOPIC_ARN,
    ),
    // The local mode's clock runs fast: a level's wait shrinks with it.
    escalationQueue: new SqsSender(
      new SQSClient(awsClientConfig(env, "SQS")),
      config.ESCALATION_QUEUE_URL,
      undefined,
      overrides.timeScale,
    ),
    ...(config.SHARE_LINK_SECRET && {
      linkToken: (alertId: string) => derivedShareToken(config.SHARE_LINK_SECRET as string, alertId).token,
    }),
    observer: overrides.observer ?? logObserver(overrides.logger ?? logger),
    now: overrides.now ?? Date.now,
    // Claims on the real clock, whatever the local mode's `now` does.
    wallClock: overrides.wallClock ?? Date.now,
  };
}
