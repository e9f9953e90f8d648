import { Duration, type Stack } from "aws-cdk-lib";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { Config, Function as SstFunction } from "sst/constructs";
import { EVIDENCE_MAX_RECEIVES } from "../packages/core/src/evidence/queue-policy.js";
import {
  PARKED_SWEEP_EVERY_MINUTES,
  PARKED_SWEEP_MESSAGE,
} from "../packages/core/src/evidence/sweep-message.js";
import { type Alerting, grantPublishAlerts } from "./alerting.js";
import {
  allow,
  allowDeviceCloudSecrets,
  EVIDENCE_TIMEOUT,
  type FunctionBase,
  pipelineFunction,
  youngGeneration,
} from "./functions.js";
import type { Queues } from "./queues.js";
import type { StageConfig } from "./stage-config.js";
import { PACKS_LISTING, packObjects, type Storage } from "./storage.js";

/** The evidence function: fetches the clips of an alert from the evidence queue into the bucket. */
export function buildEvidence(
  stack: Stack,
  config: StageConfig,
  base: FunctionBase,
  { table, evidenceBucket, stagingBucket }: Storage,
  alerting: Alerting,
  { evidenceQueue }: Pick<Queues, "evidenceQueue">,
  /** SHARE_LINK_SECRET: the evidence message carries the alert's link, its token derived again. */
  linkSecret: Config.Secret,
): SstFunction {
  // A young generation of 1 MiB semi-spaces: the download's chunks die young, and V8 otherwise grows
  // it and collects them late. Set with the runtime's own flags (the runtime passes 25 MiB at 512 MB),
  // the bench's evidence runs peaked at 101.7 to 102.8 MiB.
  const young = youngGeneration(stack, 1);
  const evidence = pipelineFunction(stack, "Evidence", base, {
    copyFiles: [...(base.accounts.copyFiles ?? []), ...young.copyFiles],
    bind: [...(base.common.bind ?? []), linkSecret],
    handler: "packages/functions/src/evidence.handler",
    timeout: EVIDENCE_TIMEOUT.toSeconds(),
    // A 30-minute clip streams through in under 100 MiB at its peak (npm run bench); 512 MB buys the
    // CPU share to hash and move it well inside the deadline.
    memorySize: 512,
    environment: {
      ...base.common.environment,
      // No source maps (parsing the map cost 25 MiB). `gc` exposed for the collections paced by the
      // download (core's evidence/gc-pacer.ts): 10-30 MiB less at the peak (npm run bench). The
      // runtime exposes it too today; the worker depends on it, so it says so.
      NODE_OPTIONS: "--expose-gc",
      ...young.environment,
      ...base.accounts.environment,
      EVIDENCE_BUCKET: evidenceBucket.bucketName,
      EVIDENCE_STAGING_BUCKET: stagingBucket.bucketName,
      FLEET_UTC_OFFSET: config.fleetUtcOffset,
      EVIDENCE_MAX_WAIT_DAYS: String(config.evidenceMaxWaitDays),
      // The stage's card retention per device type, over the recorder audit's estimates.
      CARD_RETENTION: JSON.stringify(config.cardRetention),
      EVIDENCE_MAX_RECEIVES: String(EVIDENCE_MAX_RECEIVES),
      CLAIM_SOURCE_ORGANIZATION: config.sourceOrganization,
      ...(config.timestampAuthorityUrl && {
        TSA_URL: config.timestampAuthorityUrl,
        TSA_TIMEOUT_MS: String(config.timestampTimeoutMs),
      }),
    },
  });
  // At most evidenceConcurrency downloads from the vendor's service at once; the rest wait in the
  // queue, not received (so not counted against their receives).
  evidence.addEventSource(
    new SqsEventSource(evidenceQueue, {
      batchSize: 1,
      reportBatchItemFailures: true,
      maxConcurrency: config.evidenceConcurrency,
    }),
  );

  // The parked-evidence sweep: a message on the evidence queue each PARKED_SWEEP_EVERY_MINUTES, so
  // that it runs with the evidence function's secrets and grants, within its concurrency cap (the
  // vendor's service sees one online-list call per account with parked jobs, beside the downloads).
  // The queue is SQS-managed encrypted: EventBridge may send to it with the queue policy CDK adds.
  new events.Rule(stack, "ParkedEvidenceSweep", {
    schedule: events.Schedule.rate(Duration.minutes(PARKED_SWEEP_EVERY_MINUTES)),
    targets: [
      new targets.SqsQueue(evidenceQueue, {
        message: events.RuleTargetInput.fromObject(PARKED_SWEEP_MESSAGE),
      }),
    ],
  });

  // ---- least privilege: named actions on named resources ----
  // Alert records (Get/Update), parked jobs (Put, Query, Delete), the at-risk notice's claim (Get/Update).
  allow(
    evidence,
    ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:DeleteItem"],
    [table.tableArn],
  );
  allowDeviceCloudSecrets(stack, evidence);
  grantPublishAlerts(evidence, alerting);
  allow(evidence, ["sqs:SendMessage"], [evidenceQueue.queueArn]);
  // ListBucket lets a missing manifest answer 404 instead of 403.
  allow(evidence, ["s3:ListBucket"], [evidenceBucket.bucketArn]);
  allow(evidence, ["s3:GetObject", "s3:PutObject"], [evidenceBucket.arnForObjects("evidence/*")]);
  allow(
    evidence,
    ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"],
    [stagingBucket.arnForObjects("evidence/*")],
  );
  // Claim-pack jobs: the bag is read with the evidence grants above; the zip is streamed into
  // packs/ (a multipart upload, aborted on failure), once: a listing says whether it is there.
  allow(evidence, ["s3:ListBucket"], [stagingBucket.bucketArn], PACKS_LISTING);
  allow(evidence, ["s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload"], [packObjects(stagingBucket)]);
  return evidence;
}
