import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { S3Client } from "@aws-sdk/client-s3";
import { SNSClient } from "@aws-sdk/client-sns";
import { ChangeMessageVisibilityCommand, SQSClient } from "@aws-sdk/client-sqs";
import { AlertStore, SnsAlertPublisher } from "@fleet-alerts/core/alerts";
import { SQS_MAX_VISIBILITY_SECONDS } from "@fleet-alerts/core/aws-limits";
import { type EvidenceConfig, evidenceEnvSchema, parseEnv } from "@fleet-alerts/core/config";
import { alertOf, collectEvidence, evidenceJobSchema, S3EvidenceStore } from "@fleet-alerts/core/evidence";
import { SqsSender } from "@fleet-alerts/core/queue";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import { logger, logObserver } from "./observability.js";
import { cachedOnSuccess } from "./once.js";
import { awsClientConfig, deviceCloudClients, type RuntimeOverrides, tableRef } from "./runtime.js";
import { withSecrets } from "./secrets.js";

function buildEvidenceRuntime(
  env: Readonly<Record<string, string | undefined>>,
  overrides: RuntimeOverrides,
) {
  const log = overrides.logger ?? logger;
  const config: EvidenceConfig = parseEnv(evidenceEnvSchema, env);
  const s3Config = awsClientConfig(env, "S3");
  const sqs = new SQSClient(awsClientConfig(env, "SQS"));
  const alerts = new AlertStore(tableRef(env, config.TABLE_NAME));
  return {
    config,
    sqs,
    alerts,
    clients: deviceCloudClients(config.DEVICE_CLOUD_ACCOUNTS, env, log),
    settings: {
      utcOffsetMinutes: config.FLEET_UTC_OFFSET,
      giveUpAfterMs: config.EVIDENCE_GIVE_UP_HOURS * 3_600_000,
      retryDelaySeconds: config.EVIDENCE_RETRY_DELAY_SECONDS,
      evidenceBucket: config.EVIDENCE_BUCKET,
      // Set by the stack from the package version; "dev" outside a deployment.
      software: { name: "fleet-alerts", version: env.FLEET_ALERTS_VERSION ?? "dev" },
    },
    deps: {
      // An emulator's endpoint is an IP address: path-style addressing, as S3 allows everywhere.
      store: new S3EvidenceStore(new S3Client({ ...s3Config, forcePathStyle: "endpoint" in s3Config }), {
        evidence: config.EVIDENCE_BUCKET,
        staging: config.EVIDENCE_STAGING_BUCKET,
      }),
      alerts,
      publisher: new SnsAlertPublisher(new SNSClient(awsClientConfig(env, "SNS")), config.ALERTS_TOPIC_ARN),
      requeue: new SqsSender(sqs, config.EVIDENCE_QUEUE_URL, undefined, overrides.timeScale),
      observer: overrides.observer ?? logObserver(log),
      now: overrides.now ?? Date.now,
      ...(overrides.evidenceProgress && { progress: overrides.evidenceProgress }),
    },
  };
}

/**
 * The evidence function: SQS-triggered, one evidence job per message, partial batch failures. A
 * failed job comes back after a growing delay (its visibility is extended: 30 s, 60 s, 120 s...)
 * and after the queue's maxReceiveCount goes to the DLQ, its alert record marked `failed` and the
 * reason logged.
 */
export function createEvidenceHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides = {},
) {
  const getRuntime = cachedOnSuccess(() =>
    withSecrets(env).then((resolved) => buildEvidenceRuntime(resolved, options)),
  );
  const processor = new BatchProcessor(EventType.SQS);

  const collect = async (record: SQSRecord) => {
    const { config, clients, settings, deps, sqs, alerts } = await getRuntime();
    const job = evidenceJobSchema.parse(JSON.parse(record.body));
    const client = clients.get(job.account);
    if (!client) throw new Error(`evidence job for unknown account ${job.account}`);
    try {
      await collectEvidence(job, settings, { ...deps, client });
    } catch (error) {
      const receives = Number(record.attributes.ApproximateReceiveCount ?? "1");
      const final = receives >= config.EVIDENCE_MAX_RECEIVES;
      const reason = (error as Error).message;
      deps.observer.observe({
        type: "evidence-failed",
        account: job.account,
        alertId: job.alertId,
        serialno: job.serialno,
        deviceid: job.deviceid,
        rule: job.ruleId,
        reason,
        receives,
        final,
      });
      if (final)
        await alerts.setEvidence(alertOf(job), { status: "failed", error: reason }).catch(() => undefined);
      const backoff = Math.min(
        SQS_MAX_VISIBILITY_SECONDS,
        config.EVIDENCE_FAILURE_BACKOFF_SECONDS * 2 ** (receives - 1),
      );
      await sqs
        .send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: config.EVIDENCE_QUEUE_URL,
            ReceiptHandle: record.receiptHandle,
            VisibilityTimeout: backoff,
          }),
        )
        .catch(() => undefined); // the default visibility timeout applies instead
      throw error;
    }
  };

  // One record at a time: memory holds one clip's parts at most, and a job delivered twice in one
  // batch finds the first delivery's manifest. Failures are reported per record, never thrown whole.
  return async (event: SQSEvent, context: Context) => {
    // Built on the first invocation: a configuration error fails it whole, naming the variable.
    await getRuntime();
    return processPartialResponse(event, collect, processor, {
      context,
      processInParallel: false,
      throwOnFullBatchFailure: false,
    });
  };
}

export const handler = createEvidenceHandler(process.env);
