import { readFileSync } from "node:fs";
import { Duration, RemovalPolicy, type Stack } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as logs from "aws-cdk-lib/aws-logs";
import { Config, type FunctionProps, Function as SstFunction } from "sst/constructs";
import { LAMBDA_MAX_TIMEOUT_SECONDS } from "../packages/core/src/aws-limits.js";
import type { Alerting } from "./alerting.js";
import type { Queues } from "./queues.js";
import type { StageConfig } from "./stage-config.js";
import type { Storage } from "./storage.js";

/**
 * Every function: Graviton (cheaper per ms), the latest Node.js Lambda runtime (nodejs20.x was
 * deprecated on 2026-04-30), minified bundles with source maps, split where code is imported on use
 * (the evidence function's RFC 3161 code loads only when a stage stamps its claim packs). No X-Ray: nothing emits traces, and
 * its permissions cannot be scoped to a resource. The app's default function props (sst.config.ts),
 * the one place they are set: no function overrides them.
 */
export const FUNCTION_DEFAULTS = {
  runtime: "nodejs24.x",
  architecture: "arm_64",
  tracing: "disabled",
  nodejs: { format: "esm", minify: true, sourcemap: true, splitting: true },
} as const;

/**
 * The Lambda deadline of the evidence function, the longest Lambda allows: a 30-minute clip (about
 * 900 MB at 4 Mbit/s) must fit.
 */
export const EVIDENCE_TIMEOUT = Duration.seconds(LAMBDA_MAX_TIMEOUT_SECONDS);

/** The escalate function's Lambda deadline: a few item reads, one write and one publish per job. */
export const ESCALATE_TIMEOUT = Duration.seconds(30);

function packageVersion(): string {
  return (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
}

/** What every function of the pipeline shares: defaults, bound secrets, environment, rules file. */
export interface FunctionBase {
  common: FunctionProps & { environment: Record<string, string> };
  /** The common environment plus source-mapped stack traces. */
  sourceMapped: Record<string, string>;
  /** Copies the stage's rules and groups files into the bundle as rules.json and groups.json. */
  rulesCopy: Pick<FunctionProps, "copyFiles">;
}

export function buildFunctionBase(
  stack: Stack,
  config: StageConfig,
  { table }: Pick<Storage, "table">,
  { alertsTopic }: Pick<Alerting, "alertsTopic">,
  queues: Pick<Queues, "evidenceQueue" | "confirmQueue" | "escalationQueue">,
  /** The base of incident links (infra/incident.ts): what the alerts' links point at. */
  publicBaseUrl: string,
): FunctionBase {
  // Read at run time from SSM, never written into the template: `npx sst secrets set NAME VALUE`.
  const secrets = Config.Secret.create(
    stack,
    "DEVICE_CLOUD_BASE_URL",
    "DEVICE_CLOUD_USERNAME",
    "DEVICE_CLOUD_PASSWORD",
  );
  const common = {
    bind: [secrets.DEVICE_CLOUD_BASE_URL, secrets.DEVICE_CLOUD_USERNAME, secrets.DEVICE_CLOUD_PASSWORD],
    environment: {
      TABLE_NAME: table.tableName,
      ALERTS_TOPIC_ARN: alertsTopic.topicArn,
      EVIDENCE_QUEUE_URL: queues.evidenceQueue.queueUrl,
      CONFIRM_QUEUE_URL: queues.confirmQueue.queueUrl,
      ESCALATION_QUEUE_URL: queues.escalationQueue.queueUrl,
      // Every message about an alert carries a link to its incident page, made to expire.
      PUBLIC_BASE_URL: publicBaseUrl,
      SHARE_LINK_HOURS: String(config.shareLinkHours),
      // No DEVICE_CLOUD_ACCOUNTS: the handlers make account "main" from the bound secrets at start,
      // with these settings.
      ...(config.rulesFile && { RULES_FILE: "rules.json" }),
      ...(config.groupsFile && { GROUPS_FILE: "groups.json" }),
      GPS_SPEED_UNIT: config.gpsSpeedUnit,
      GPS_LOOKUP_BUDGET_MS: String(config.gpsLookupBudgetMs),
      FLEET_TIME_ZONE: config.fleetTimeZone,
      POWERTOOLS_SERVICE_NAME: "fleet-alerts",
      FLEET_ALERTS_VERSION: packageVersion(),
    },
  };
  return {
    common,
    // Stack traces in the logs point at the TypeScript sources, through the bundled source maps. Not
    // in the evidence function: parsing the map cost it 25 MiB of its peak memory (npm run bench).
    sourceMapped: { ...common.environment, NODE_OPTIONS: "--enable-source-maps" },
    rulesCopy: configCopy(config),
  };
}

/** A function with the common props and its own log group `<id>Logs`, kept a month. */
export function pipelineFunction(stack: Stack, id: string, base: FunctionBase, props: FunctionProps) {
  const logGroup = new logs.LogGroup(stack, `${id}Logs`, {
    retention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  return new SstFunction(stack, id, { ...base.common, logGroup, ...props });
}

/** Grants named actions on named resources: least privilege, never a wildcard. */
export function allow(
  fn: SstFunction,
  actions: string[],
  resources: string[],
  conditions?: Record<string, Record<string, string[]>>,
) {
  fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources, ...(conditions && { conditions }) }));
}

/** The stage's rules and groups files, as the functions find them beside their code. */
function configCopy(config: StageConfig): Pick<FunctionProps, "copyFiles"> {
  const copyFiles = [
    ...(config.rulesFile ? [{ from: config.rulesFile, to: "rules.json" }] : []),
    ...(config.groupsFile ? [{ from: config.groupsFile, to: "groups.json" }] : []),
  ];
  return copyFiles.length > 0 ? { copyFiles } : {};
}
