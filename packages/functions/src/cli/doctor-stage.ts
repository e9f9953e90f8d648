import { CloudFormationClient } from "@aws-sdk/client-cloudformation";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { EventBridgeClient } from "@aws-sdk/client-eventbridge";
import { S3Client } from "@aws-sdk/client-s3";
import { SNSClient } from "@aws-sdk/client-sns";
import { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  DynamoPollRecords,
  deviceCloudLogin,
  fetchProbe,
  S3ObjectLock,
  SnsTopicSubscriptions,
  SqsQueueDepths,
} from "@fleet-alerts/core/doctor";
import { loadStageConfig } from "../../../../infra/stage-config.js";
import { callLimits, type DoctorStage } from "./doctor-clients.js";
import { ssmSecrets } from "./ssm-secrets.js";
import { describeStack, eventBridgeSchedules, stackOutput, stageTarget } from "./stage-resources.js";

type Env = Readonly<Record<string, string | undefined>>;

/** sst.config.ts's app name: SST v2 names the stack `<stage>-<app>-Pipeline` and the secrets `/sst/<app>/<stage>/`. */
const APP = "fleet-alerts";

/**
 * A deployed stage: its stack's outputs and resources (CloudFormation), its accounts, lag
 * threshold and TSA from its stage file (infra/stages/<stage>.json, read as the deploy reads it:
 * doctor runs in the checkout that deploys), its secrets in SSM. Region and credentials come from
 * the standard environment.
 */
export async function deployedStage(stage: string, env: Env, timeoutMs: number): Promise<DoctorStage> {
  const config = loadStageConfig(stage);
  const limits = callLimits(timeoutMs);
  const cloudformation = new CloudFormationClient(limits);
  const stack = await describeStack(cloudformation, `${stage}-${APP}-Pipeline`).finally(() =>
    cloudformation.destroy(),
  );
  const target = stageTarget(stage, config, stack);
  const tableName = stackOutput(stage, stack, "TableName");
  const dynamodb = new DynamoDBClient(limits);
  const sqs = new SQSClient(limits);
  const sns = new SNSClient(limits);
  const s3 = new S3Client(limits);
  const events = new EventBridgeClient(limits);
  return {
    target,
    ports: {
      secrets: ssmSecrets(stage, { ...env, SST_APP: APP, SST_SSM_PREFIX: `/sst/${APP}/${stage}/` }, limits),
      login: deviceCloudLogin,
      polls: new DynamoPollRecords({ documents: DynamoDBDocumentClient.from(dynamodb), tableName }),
      schedules: eventBridgeSchedules(events, stack),
      queues: new SqsQueueDepths(sqs),
      subscriptions: new SnsTopicSubscriptions(sns),
      objectLock: new S3ObjectLock(s3),
      http: fetchProbe,
      now: Date.now,
    },
    close: () => {
      for (const client of [dynamodb, sqs, sns, s3, events]) client.destroy();
    },
  };
}
