import { S3Client } from "@aws-sdk/client-s3";
import { SNSClient } from "@aws-sdk/client-sns";
import { SQSClient } from "@aws-sdk/client-sqs";
import type { StructuredLogger } from "@fleet-alerts/core";
import { AlertStore, incidentLink, SnsAlertPublisher } from "@fleet-alerts/core/alerts";
import { type EvidenceConfig, evidenceEnvSchema, parseEnv } from "@fleet-alerts/core/config";
import type { DeviceCloudClient } from "@fleet-alerts/core/devicecloud";
import { ParkedJobStore, S3EvidenceStore, type TrackSettings } from "@fleet-alerts/core/evidence";
import { NoticeClaims } from "@fleet-alerts/core/notices";
import { SqsSender } from "@fleet-alerts/core/queue";
import { derivedShareToken } from "@fleet-alerts/core/share";
import { cardRetentionOf } from "./card-retention.js";
import { logger, logObserver } from "./observability.js";
import { awsClientConfig, deviceCloudClients, type RuntimeOverrides, tableRef } from "./runtime.js";
import { perAccount, withSecrets } from "./secrets.js";

export type EvidenceRuntime = ReturnType<typeof buildEvidenceRuntime>;

/**
 * The evidence function's runtime of each account. A configuration error fails every invocation at
 * once, before any account's secrets are read; each job names its account (a claim pack's alert id
 * does), whose secrets are read on its first job in the container.
 */
export function evidenceRuntimes(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides,
) {
  parseEnv(evidenceEnvSchema.omit({ DEVICE_CLOUD_ACCOUNTS: true }), env);
  return perAccount((account) =>
    withSecrets(env, [account]).then((resolved) => buildEvidenceRuntime(resolved, options)),
  );
}

/** What the evidence function needs, built once per container from its environment. */
export function buildEvidenceRuntime(
  env: Readonly<Record<string, string | undefined>>,
  overrides: RuntimeOverrides,
) {
  const log = overrides.logger ?? logger;
  const config: EvidenceConfig = parseEnv(evidenceEnvSchema, env);
  const s3Config = awsClientConfig(env, "S3");
  // An emulator's endpoint is an IP address: path-style addressing, as S3 allows everywhere.
  const s3 = new S3Client({ ...s3Config, forcePathStyle: "endpoint" in s3Config });
  const sqs = new SQSClient(awsClientConfig(env, "SQS"));
  const table = tableRef(env, config.TABLE_NAME);
  const alerts = new AlertStore(table);
  return {
    config,
    /** Where the function's own lines go: Powertools deployed, the local mode's problem list. */
    logger: log,
    sqs,
    alerts,
    accounts: evidenceAccounts(config, env, log),
    claimPacks: {
      s3,
      alerts,
      evidenceBucket: config.EVIDENCE_BUCKET,
      stagingBucket: config.EVIDENCE_STAGING_BUCKET,
    },
    settings: {
      utcOffsetMinutes: config.FLEET_UTC_OFFSET,
      maxWaitDays: config.EVIDENCE_MAX_WAIT_DAYS,
      retryDelaySeconds: config.EVIDENCE_RETRY_DELAY_SECONDS,
      evidenceBucket: config.EVIDENCE_BUCKET,
      // Set by the stack from the package version; "dev" outside a deployment.
      software: { name: "fleet-alerts", version: env.FLEET_ALERTS_VERSION ?? "dev" },
      claimPack: {
        sourceOrganization: config.CLAIM_SOURCE_ORGANIZATION,
        fleetTimeZone: config.FLEET_TIME_ZONE,
        functionVersion: config.AWS_LAMBDA_FUNCTION_NAME
          ? `${config.AWS_LAMBDA_FUNCTION_NAME}:${config.AWS_LAMBDA_FUNCTION_VERSION ?? "$LATEST"}`
          : "local",
        ...(config.TSA_URL && { tsa: { url: config.TSA_URL, timeoutMs: config.TSA_TIMEOUT_MS } }),
      },
    },
    deps: {
      store: new S3EvidenceStore(s3, {
        evidence: config.EVIDENCE_BUCKET,
        staging: config.EVIDENCE_STAGING_BUCKET,
      }),
      alerts,
      publisher: new SnsAlertPublisher(new SNSClient(awsClientConfig(env, "SNS")), config.ALERTS_TOPIC_ARN),
      requeue: new SqsSender(sqs, config.EVIDENCE_QUEUE_URL, undefined, overrides.timeScale),
      parked: new ParkedJobStore(table),
      retention: cardRetentionOf(env, table),
      // The parked-evidence sweep's "footage at risk" claims (notices/deliver-once.ts).
      claims: new NoticeClaims(table),
      observer: overrides.observer ?? logObserver(log),
      now: overrides.now ?? Date.now,
      // The evidence notices' claims (evidence ready, at risk) on the real clock, whatever `now` does.
      wallClock: overrides.wallClock ?? Date.now,
      ...(overrides.evidenceProgress && { progress: overrides.evidenceProgress }),
      ...(config.PUBLIC_BASE_URL &&
        config.SHARE_LINK_SECRET && {
          incidentLink: linksFrom(config.PUBLIC_BASE_URL, config.SHARE_LINK_SECRET),
        }),
    },
  };
}

/** Per account: its device-cloud client, and how its /api/gps is read for the evidence track. */
function evidenceAccounts(
  config: EvidenceConfig,
  env: Readonly<Record<string, string | undefined>>,
  log: StructuredLogger,
): Map<string, { client: DeviceCloudClient; track: TrackSettings }> {
  const clients = deviceCloudClients(config.DEVICE_CLOUD_ACCOUNTS, env, log);
  return new Map(
    config.DEVICE_CLOUD_ACCOUNTS.map((account) => [
      account.id,
      {
        client: clients.get(account.id) as DeviceCloudClient,
        track: { speedUnit: account.gpsSpeedUnit, lookups: account.gpsLookupBudgetMs > 0 },
      },
    ]),
  );
}

/** An alert's incident page, its token derived from the alert id as its own messages' link was. */
function linksFrom(baseUrl: string, secret: string) {
  return (alertId: string) => incidentLink(baseUrl, derivedShareToken(secret, alertId).token);
}
