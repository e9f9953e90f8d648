import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Duration, RemovalPolicy, type Stack } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as logs from "aws-cdk-lib/aws-logs";
import {
  type App,
  type FunctionProps,
  Function as SstFunction,
  type Stack as SstStack,
} from "sst/constructs";
import { useProject } from "sst/project.js";
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

/** The Offline confirmation's Lambda deadline, for a batch of up to ten delayed checks. */
export const CONFIRM_TIMEOUT = Duration.seconds(60);

function packageVersion(): string {
  return (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
}

/** What every function of the pipeline shares: defaults, environment, the accounts file. */
export interface FunctionBase {
  common: FunctionProps & { environment: Record<string, string> };
  /** The common environment plus source-mapped stack traces. */
  sourceMapped: Record<string, string>;
  /**
   * For the functions that talk to the device cloud (poller, confirmation, evidence): the stage's
   * accounts file and each account's rules file copied into the bundle, and the environment
   * variable naming the first.
   */
  accounts: Pick<FunctionProps, "copyFiles"> & { environment: Record<string, string> };
}

/** Where the bundle holds the accounts file, and each account's rules file (rules/<id>.json). */
const ACCOUNTS_FILE = "accounts.json";
const rulesFileOf = (accountId: string) => `rules/${accountId}.json`;

/**
 * Writes the stage's accounts, as the functions read them (core's accountSettingsListSchema), under
 * .sst/ (SST's own working folder, not committed), and returns its path from the project root, as
 * SST's copyFiles wants it. A file, not an environment variable: a hundred accounts' ids and
 * settings would not fit Lambda's 4 KB environment, and the bundle holds their rules files anyway.
 */
function writeAccountsFile(stage: string, config: StageConfig): string {
  const folder = join(".sst", "fleet-alerts", stage);
  mkdirSync(folder, { recursive: true });
  const accounts = config.accounts.map((account) => ({
    ...account,
    ...(account.rulesFile && { rulesFile: rulesFileOf(account.id) }),
  }));
  const file = join(folder, ACCOUNTS_FILE);
  // Written whole, then renamed: two synths of one stage (tests side by side) never read half a file.
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(accounts, null, 2)}\n`);
  renameSync(partial, file);
  return file;
}

export function buildFunctionBase(
  config: StageConfig,
  { table }: Pick<Storage, "table">,
  { alertsTopic }: Pick<Alerting, "alertsTopic">,
  queues: Pick<Queues, "evidenceQueue" | "confirmQueue" | "escalationQueue">,
  /** The base of incident links (infra/incident.ts): what the alerts' links point at. */
  publicBaseUrl: string,
): FunctionBase {
  const common = {
    bind: [],
    environment: {
      TABLE_NAME: table.tableName,
      ALERTS_TOPIC_ARN: alertsTopic.topicArn,
      EVIDENCE_QUEUE_URL: queues.evidenceQueue.queueUrl,
      CONFIRM_QUEUE_URL: queues.confirmQueue.queueUrl,
      ESCALATION_QUEUE_URL: queues.escalationQueue.queueUrl,
      // Every message about an alert carries a link to its incident page, made to expire.
      PUBLIC_BASE_URL: publicBaseUrl,
      SHARE_LINK_HOURS: String(config.shareLinkHours),
      ...(config.groupsFile && { GROUPS_FILE: "groups.json" }),
      FLEET_TIME_ZONE: config.fleetTimeZone,
      POWERTOOLS_SERVICE_NAME: "fleet-alerts",
      FLEET_ALERTS_VERSION: packageVersion(),
    },
  };
  return {
    common,
    // Stack traces in the logs point at the TypeScript sources, through the bundled source maps. Not
    // in the evidence function nor the poller: parsing the map cost them 25 and 12 MiB of their peak
    // memory (npm run bench).
    sourceMapped: { ...common.environment, NODE_OPTIONS: "--enable-source-maps" },
    accounts: {
      // No DEVICE_CLOUD_ACCOUNTS: the handlers make each account from this file and its secrets.
      environment: { DEVICE_CLOUD_ACCOUNTS_FILE: ACCOUNTS_FILE },
      copyFiles: [
        { from: writeAccountsFile(useProject().config.stage, config), to: ACCOUNTS_FILE },
        ...config.accounts.flatMap((account) =>
          account.rulesFile ? [{ from: account.rulesFile, to: rulesFileOf(account.id) }] : [],
        ),
        ...(config.groupsFile ? [{ from: config.groupsFile, to: "groups.json" }] : []),
      ],
    },
  };
}

/**
 * Lets a function read the device-cloud accounts' SST secrets (DEVICE_CLOUD_<ID>_*), the stage's
 * and the app-wide fallback, as `bind` would for each secret. One wildcard per path, not one ARN
 * per secret: a hundred accounts' 600 ARNs would pass IAM's 10 KB limit on a role's inline policy
 * (cdk-nag's finding is suppressed with this reason in infra/nag.ts).
 */
export function allowDeviceCloudSecrets(stack: Stack, fn: SstFunction) {
  const parameter = (path: string) =>
    `arn:${stack.partition}:ssm:${stack.region}:${stack.account}:parameter${path}`;
  allow(fn, ["ssm:GetParameters"], deviceCloudSecretPaths().map(parameter));
}

/** The SSM paths of every account's secrets: the stage's (SST_SSM_PREFIX) and the app-wide fallback. */
export function deviceCloudSecretPaths(): string[] {
  const { name, stage, ssmPrefix = `/sst/${name}/${stage}/` } = useProject().config;
  return [ssmPrefix, `/sst/${name}/.fallback/`].map((prefix) => `${prefix}Secret/DEVICE_CLOUD_*`);
}

/** A function with the common props and its own log group `<id>Logs`, kept a month. */
export function pipelineFunction(stack: Stack, id: string, base: FunctionBase, props: FunctionProps) {
  const logGroup = new logs.LogGroup(stack, `${id}Logs`, {
    retention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  return new SstFunction(stack, id, { ...base.common, logGroup, ...props });
}

/** Where Lambda unpacks a function's bundle: a file the bundle holds is here at run time. */
export const LAMBDA_TASK_ROOT = "/var/task";

/** Starts node with flags that win over the runtime's own (read it for why), from the bundle. */
const RUNTIME_WRAPPER_FILE = { from: "infra/runtime-wrapper.sh", to: "runtime-wrapper.sh" };

/**
 * A function's young generation set to semi-spaces of `semiSpaceMiB`, where its bundle is deployed:
 * the files to copy beside its bundle and its environment. Not through NODE_OPTIONS: Lambda's
 * runtime passes its own --max-semi-space-size (a twentieth of the memory) on node's command line,
 * which wins over them; infra/runtime-wrapper.sh puts the flag after the runtime's.
 */
export function youngGeneration(
  stack: Stack,
  semiSpaceMiB: number,
): { copyFiles: { from: string; to: string }[]; environment: Record<string, string> } {
  if (!deploysOwnBundles(stack)) return { copyFiles: [], environment: {} };
  return {
    copyFiles: [RUNTIME_WRAPPER_FILE],
    environment: {
      AWS_LAMBDA_EXEC_WRAPPER: `${LAMBDA_TASK_ROOT}/${RUNTIME_WRAPPER_FILE.to}`,
      NODE_FLAGS_AFTER_RUNTIME: `--max-semi-space-size=${semiSpaceMiB}`,
    },
  };
}

/**
 * Whether `stack`'s functions deploy their own bundles: not under `sst dev`, whose functions are a
 * bridge that runs each handler on the developer's machine, nor in a stack the command leaves
 * inactive (an inline placeholder). A setting that names a file of the bundle holds only then: the
 * runtime refuses to start a function whose exec wrapper is not there.
 */
export function deploysOwnBundles(stack: Stack): boolean {
  return (stack.node.root as App).mode === "deploy" && (stack as Partial<SstStack>).isActive !== false;
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
