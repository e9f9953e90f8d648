import type { Stack } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import type { Function as SstFunction } from "sst/constructs";
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

/** The topics, their key and the stage's subscriptions. */
export function buildAlerting(stack: Stack, config: StageConfig): Alerting {
  const topicKey = new kms.Key(stack, "TopicKey", {
    description: "Encrypts the alerts and ops topics",
    enableKeyRotation: true,
    removalPolicy: removalPolicy(config),
  });
  // CloudWatch alarms publish to the (encrypted) ops topic: the key must let them.
  topicKey.grant(new iam.ServicePrincipal("cloudwatch.amazonaws.com"), "kms:Decrypt", "kms:GenerateDataKey");
  const alertsTopic = new sns.Topic(stack, "AlertsTopic", { masterKey: topicKey, enforceSSL: true });
  const opsTopic = new sns.Topic(stack, "OpsTopic", { masterKey: topicKey, enforceSSL: true });
  for (const email of config.alertEmails) {
    // Email for alerts and for "evidence ready" notices alike.
    alertsTopic.addSubscription(new subscriptions.EmailSubscription(email));
  }
  for (const number of config.smsNumbers) {
    alertsTopic.addSubscription(
      new subscriptions.SmsSubscription(number, {
        filterPolicy: {
          kind: sns.SubscriptionFilter.stringFilter({ allowlist: ["alert"] }),
          severity: sns.SubscriptionFilter.stringFilter({ allowlist: config.smsSeverities }),
        },
      }),
    );
  }
  for (const email of config.opsEmails) opsTopic.addSubscription(new subscriptions.EmailSubscription(email));
  return { topicKey, alertsTopic, opsTopic };
}

/** Publish on the alerts topic, and the key operations its encryption needs. */
export function grantPublishAlerts(fn: SstFunction, { alertsTopic, topicKey }: Alerting) {
  allow(fn, ["sns:Publish"], [alertsTopic.topicArn]);
  allow(fn, ["kms:GenerateDataKey", "kms:Decrypt"], [topicKey.keyArn]);
}
