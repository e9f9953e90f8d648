import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { SQSClient } from "@aws-sdk/client-sqs";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { AlertStore } from "@fleet-alerts/core/alerts";
import { incidentEnvSchema, parseEnv } from "@fleet-alerts/core/config";
import { AcknowledgementStore } from "@fleet-alerts/core/escalation";
import { SqsSender } from "@fleet-alerts/core/queue";
import { AccessAudit, ShareStore } from "@fleet-alerts/core/share";
import { ClaimPackZips } from "./incident/adapters/claim-pack-zips.js";
import { EvidenceObjects } from "./incident/adapters/evidence-objects.js";
import {
  acknowledgementsPort,
  auditPort,
  evidenceLinksPort,
  incidentsPort,
} from "./incident/adapters/port-adapters.js";
import type { IncidentAppDeps } from "./incident/ports.js";
import { logger, logObserver } from "./observability.js";
import { awsClientConfig, type RuntimeOverrides, tableRef } from "./runtime.js";

type Env = Readonly<Record<string, string | undefined>>;

/** What the local mode and the tests change: their logger, observer and clock. */
export type IncidentOverrides = Pick<RuntimeOverrides, "logger" | "observer" | "now">;

/** The incident app's dependencies, built once per container from its environment. */
export async function buildIncidentDeps(
  env: Env,
  overrides: IncidentOverrides = {},
): Promise<IncidentAppDeps> {
  const log = overrides.logger ?? logger;
  const config = parseEnv(incidentEnvSchema, env);
  const table = tableRef(env, config.TABLE_NAME);
  const s3Config = awsClientConfig(env, "S3");
  // An emulator's endpoint is an IP address: path-style addressing, as S3 allows everywhere.
  const s3 = new S3Client({ ...s3Config, forcePathStyle: "endpoint" in s3Config });
  const alerts = new AlertStore(table);
  const objects = new EvidenceObjects(s3, config.EVIDENCE_BUCKET);
  const zips = new ClaimPackZips(
    s3,
    config.EVIDENCE_STAGING_BUCKET,
    new SqsSender(new SQSClient(awsClientConfig(env, "SQS")), config.EVIDENCE_QUEUE_URL),
  );
  return {
    shares: new ShareStore(table),
    acknowledgements: acknowledgementsPort(
      alerts,
      new AcknowledgementStore(table),
      overrides.observer ?? logObserver(log),
    ),
    audit: auditPort(new AccessAudit(table)),
    evidence: evidenceLinksPort(alerts, objects, zips),
    incidents: incidentsPort(alerts, objects, config.FLEET_TIME_ZONE),
    logger: log,
    publicOrigin: new URL(config.PUBLIC_BASE_URL).origin,
    mediaOrigin: await presignedOrigin(s3, config.EVIDENCE_BUCKET),
    formSecret: config.INCIDENT_FORM_SECRET,
    now: overrides.now ?? Date.now,
  };
}

/**
 * The origin presigned URLs point at (the page's `media-src`), taken from the presigner itself, so
 * that the policy and the links cannot disagree (virtual-hosted in AWS, path-style on an emulator).
 * Signing is local: no request is made.
 */
async function presignedOrigin(s3: S3Client, bucket: string): Promise<string> {
  const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: "origin" }), {
    expiresIn: 60,
  });
  return new URL(url).origin;
}
