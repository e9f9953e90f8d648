import { RemovalPolicy, type Stack } from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import * as apigwv2 from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as acm from "aws-cdk-lib/aws-certificatemanager";
import * as logs from "aws-cdk-lib/aws-logs";
import { Config, type Function as SstFunction } from "sst/constructs";
import { allow, type FunctionBase, pipelineFunction } from "./functions.js";
import type { Queues } from "./queues.js";
import type { StageConfig } from "./stage-config.js";
import { PACKS_LISTING, packObjects, type Storage } from "./storage.js";

export interface IncidentApi {
  api: apigwv2.HttpApi;
  stage: apigwv2.HttpStage;
  /** The custom domain, when the stage has one: its regional name is the DNS target. */
  domain?: apigwv2.DomainName;
  /** What links start with: the stage's publicBaseUrl, else the custom domain, else the endpoint. */
  publicBaseUrl: string;
}

/**
 * One access-log line per request, without the token: `$context.routeKey` is the route's template
 * (`GET /i/{token}`), never the path, and no path, query or parameter variable is logged. Whoever
 * reads the logs must not be able to open the incidents in them.
 */
export const INCIDENT_ACCESS_LOG_FORMAT = {
  requestId: "$context.requestId",
  time: "$context.requestTime",
  routeKey: "$context.routeKey",
  status: "$context.status",
  latencyMs: "$context.responseLatency",
  integrationLatencyMs: "$context.integrationLatency",
  responseLength: "$context.responseLength",
  ip: "$context.identity.sourceIp",
  userAgent: "$context.identity.userAgent",
  error: "$context.error.message",
};

/** The incident page's routes, each answered by the incident function. */
export const INCIDENT_ROUTES: [apigwv2.HttpMethod, string][] = [
  [apigwv2.HttpMethod.GET, "/i/{token}"],
  [apigwv2.HttpMethod.POST, "/i/{token}/ack"],
  [apigwv2.HttpMethod.GET, "/i/{token}/clips/{n}"],
  [apigwv2.HttpMethod.GET, "/i/{token}/pack"],
];

/**
 * The HTTP API of the incident pages, without its routes (they need the function, and the function
 * needs the base URL): a throttled default stage with access logs, on the custom domain if set.
 */
export function buildIncidentApi(stack: Stack, config: StageConfig): IncidentApi {
  const api = new apigwv2.HttpApi(stack, "IncidentApi", {
    description: "Incident pages behind share links",
    // The stage is made below, with throttling and access logs the default one cannot have.
    createDefaultStage: false,
  });
  const accessLogs = new logs.LogGroup(stack, "IncidentApiAccessLogs", {
    retention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const domain =
    config.customDomain &&
    new apigwv2.DomainName(stack, "IncidentDomain", {
      domainName: config.customDomain.domainName,
      certificate: acm.Certificate.fromCertificateArn(
        stack,
        "IncidentCertificate",
        config.customDomain.certificateArn,
      ),
    });
  const stage = new apigwv2.HttpStage(stack, "IncidentApiStage", {
    httpApi: api,
    stageName: "$default",
    autoDeploy: true,
    // A token guesser or a crawler that found a link runs into this long before the table's bill.
    throttle: config.incidentThrottle,
    accessLogSettings: {
      destination: new apigwv2.LogGroupLogDestination(accessLogs),
      format: AccessLogFormat.custom(JSON.stringify(INCIDENT_ACCESS_LOG_FORMAT)),
    },
    ...(domain && { domainMapping: { domainName: domain } }),
  });
  const publicBaseUrl = config.publicBaseUrl ?? (domain ? `https://${domain.name}` : api.apiEndpoint);
  return { api, stage, ...(domain && { domain }), publicBaseUrl };
}

/**
 * The incident function and its routes. It reads and acknowledges alerts, keeps share links and
 * their audit items, reads (and presigns) evidence objects and claim-pack zips, and asks the
 * evidence function for a zip: nothing else.
 */
export function buildIncidentFunction(
  stack: Stack,
  config: StageConfig,
  base: FunctionBase,
  { table, evidenceBucket, stagingBucket }: Pick<Storage, "table" | "evidenceBucket" | "stagingBucket">,
  { evidenceQueue }: Pick<Queues, "evidenceQueue">,
  { api, publicBaseUrl }: IncidentApi,
): SstFunction {
  // Signs the acknowledgement form's CSRF token; read from SSM at run time, like the device-cloud
  // secrets: `npx sst secrets set INCIDENT_FORM_SECRET <random>`.
  const formSecret = new Config.Secret(stack, "INCIDENT_FORM_SECRET");
  const incident = pipelineFunction(stack, "Incident", base, {
    handler: "packages/functions/src/incident.handler",
    timeout: 10,
    memorySize: 256,
    // Only its own secret: the page never talks to the device cloud.
    bind: [formSecret],
    environment: {
      TABLE_NAME: table.tableName,
      EVIDENCE_BUCKET: evidenceBucket.bucketName,
      EVIDENCE_STAGING_BUCKET: stagingBucket.bucketName,
      EVIDENCE_QUEUE_URL: evidenceQueue.queueUrl,
      PUBLIC_BASE_URL: publicBaseUrl,
      FLEET_TIME_ZONE: config.fleetTimeZone,
      POWERTOOLS_SERVICE_NAME: base.common.environment.POWERTOOLS_SERVICE_NAME as string,
      FLEET_ALERTS_VERSION: base.common.environment.FLEET_ALERTS_VERSION as string,
      NODE_OPTIONS: "--enable-source-maps",
    },
  });
  const integration = new HttpLambdaIntegration("IncidentIntegration", incident);
  for (const [method, path] of INCIDENT_ROUTES) api.addRoutes({ path, methods: [method], integration });

  // ---- least privilege: named actions on named resources ----
  // Only items under share links (SHARE#<sha256>) and alert accounts (ACCOUNT#...): the cursors,
  // rule states and anything else in the table stay out of reach of a public-facing function.
  allow(
    incident,
    ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"],
    [table.tableArn],
    { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["ACCOUNT#*", "SHARE#*"] } },
  );
  // Presigned clip URLs are signed with this role: they can reach no more than it can. The bucket is
  // S3-managed encrypted (infra/storage.ts), so no key grant.
  allow(incident, ["s3:GetObject"], [evidenceBucket.arnForObjects("evidence/*")]);
  // Claim-pack zips: is one there (a listing of packs/ only), its download link, and a job asking
  // the evidence function to build it. The queue is SQS-managed encrypted: no key grant.
  allow(incident, ["s3:ListBucket"], [stagingBucket.bucketArn], PACKS_LISTING);
  allow(incident, ["s3:GetObject"], [packObjects(stagingBucket)]);
  allow(incident, ["sqs:SendMessage"], [evidenceQueue.queueArn]);
  return incident;
}
