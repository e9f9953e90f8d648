import type { Stack } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import type { Function as SstFunction } from "sst/constructs";
import {
  type GroupsFile,
  recipientSubscriptions,
  UNROUTED_FILTER_POLICY,
} from "../packages/core/src/routing/index.js";
import { allow } from "./functions.js";
import type { StageConfig } from "./stage-config.js";
import { removalPolicy } from "./storage.js";

export interface Alerting {
  topicKey: kms.Key;
  /** Alerts and "evidence ready" notices, to people (email, SMS). */
  alertsTopic: sns.Topic;
  /** Alarms, to the ops team. */
  opsTopic: sns.Topic;
}

/** The topics, their key and the stage's subscriptions: the groups' recipients, and ops. */
export function buildAlerting(stack: Stack, config: StageConfig, groups: GroupsFile | undefined): Alerting {
  const topicKey = new kms.Key(stack, "TopicKey", {
    description: "Encrypts the alerts and ops topics",
    enableKeyRotation: true,
    removalPolicy: removalPolicy(config),
  });
  // CloudWatch alarms publish to the (encrypted) ops topic: the key must let them.
  topicKey.grant(new iam.ServicePrincipal("cloudwatch.amazonaws.com"), "kms:Decrypt", "kms:GenerateDataKey");
  const alertsTopic = new sns.Topic(stack, "AlertsTopic", { masterKey: topicKey, enforceSSL: true });
  const opsTopic = new sns.Topic(stack, "OpsTopic", { masterKey: topicKey, enforceSSL: true });
  // One subscription per distinct address or number, filtered on its recipient id: the poller
  // publishes one message per recipient (docs/design/routing-and-notices.md, Routing). Email gets
  // alerts and "evidence ready" notices; SMS whatever is addressed to it (alerts, the hour's cap
  // summary).
  for (const recipient of groups ? recipientSubscriptions(groups) : []) {
    const filterPolicy = {
      to: sns.SubscriptionFilter.stringFilter({ allowlist: recipient.filterPolicy.to }),
    };
    alertsTopic.addSubscription(
      recipient.protocol === "email"
        ? new subscriptions.EmailSubscription(recipient.endpoint, { filterPolicy })
        : new subscriptions.SmsSubscription(recipient.endpoint, { filterPolicy }),
    );
  }
  // What no group selects is never lost: the ops team hears of it.
  for (const email of config.opsEmails)
    alertsTopic.addSubscription(
      new subscriptions.EmailSubscription(email, {
        filterPolicy: { to: sns.SubscriptionFilter.stringFilter({ allowlist: UNROUTED_FILTER_POLICY.to }) },
      }),
    );
  for (const email of config.opsEmails) opsTopic.addSubscription(new subscriptions.EmailSubscription(email));
  return { topicKey, alertsTopic, opsTopic };
}

/** Publish on the ops topic (the stage's `opsEmails`), and the key operations its encryption needs. */
export function grantTellOps(
  fn: SstFunction,
  { opsTopic, topicKey }: Pick<Alerting, "opsTopic" | "topicKey">,
) {
  allow(fn, ["sns:Publish"], [opsTopic.topicArn]);
  allow(fn, ["kms:GenerateDataKey", "kms:Decrypt"], [topicKey.keyArn]);
}

/** Publish on the alerts topic, and the key operations its encryption needs. */
export function grantPublishAlerts(fn: SstFunction, { alertsTopic, topicKey }: Alerting) {
  allow(fn, ["sns:Publish"], [alertsTopic.topicArn]);
  allow(fn, ["kms:GenerateDataKey", "kms:Decrypt"], [topicKey.keyArn]);
}
