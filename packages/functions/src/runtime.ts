import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SNSClient } from "@aws-sdk/client-sns";
import { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Observer, StructuredLogger } from "@fleet-alerts/core";
import { AlertLinks, AlertStore, PublicationStore, SnsAlertPublisher } from "@fleet-alerts/core/alerts";
import {
  type AccountConfig,
  ConfigError,
  type PollerConfig,
  parseEnv,
  pollerEnvSchema,
} from "@fleet-alerts/core/config";
import { AccountLock, CursorStore } from "@fleet-alerts/core/cursor";
import { DeviceCloudClient } from "@fleet-alerts/core/devicecloud";
import { type EvidenceDependencies, ParkedJobStore } from "@fleet-alerts/core/evidence";
import {
  alertLinkOf,
  NoticeClaims,
  StaleSummaryNotices,
  StaleSummaryStore,
} from "@fleet-alerts/core/notices";
import { OfflineCheckStore } from "@fleet-alerts/core/offline";
import {
  type AccountPoller,
  type PollerDependencies,
  RejectedEventStore,
  RuleStateStore,
  TickCarry,
} from "@fleet-alerts/core/poller";
import { type JobQueue, SqsSender } from "@fleet-alerts/core/queue";
import {
  DynamoRoutingItemStore,
  DynamoSmsCapStore,
  loadGroupsFile,
  NO_GROUPS,
  Router,
  validateRouting,
} from "@fleet-alerts/core/routing";
import { DEFAULT_RULES, loadRulesFile } from "@fleet-alerts/core/rules";
import { SetAside, SetAsideStore, SnsOpsChannel } from "@fleet-alerts/core/setaside";
import { ShareStore } from "@fleet-alerts/core/share";
import type { TableRef } from "@fleet-alerts/core/store";
import { logger, logObserver } from "./observability.js";
import { ACCOUNTS_FILE_ENV, readAccountsFile } from "./secrets.js";

/**
 * Region, endpoint and credentials from the given environment when it names them. In Lambda the
 * SDK finds the same values itself; the local mode and the tests point clients at the emulators
 * through an environment of their own.
 */
export function awsClientConfig(
  env: Readonly<Record<string, string | undefined>>,
  service: "DYNAMODB" | "SNS" | "SQS" | "S3",
) {
  const endpoint = env[`AWS_ENDPOINT_URL_${service}`] ?? env.AWS_ENDPOINT_URL;
  const { AWS_REGION: region, AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env;
  return {
    ...(region && { region }),
    ...(endpoint && { endpoint }),
    ...(accessKeyId && secretAccessKey && { credentials: { accessKeyId, secretAccessKey } }),
  };
}

/**
 * The client without the SDK's logger middleware, which runs every request's input and every
 * response's output through a copy filtering sensitive members, whether or not a logger is set to
 * receive them (none is here: the default drops them). About 3% of a backlog catch-up's CPU
 * (`npm run bench`).
 */
export function withoutSdkLogging<C extends { middlewareStack: { remove(name: string): boolean } }>(
  client: C,
): C {
  client.middlewareStack.remove("loggerMiddleware");
  return client;
}

/** The table every store of a handler shares; optional fields are left out, not written as null. */
export function tableRef(env: Readonly<Record<string, string | undefined>>, tableName: string): TableRef {
  const client = withoutSdkLogging(new DynamoDBClient(awsClientConfig(env, "DYNAMODB")));
  return {
    documents: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    tableName,
  };
}

export interface PollerRuntime {
  config: PollerConfig;
  pollers: AccountPoller[];
  /** The observer every account's poller reports to (the run summaries too). */
  observer: Observer;
  logger: StructuredLogger;
  /** Where each account's poll chain sends the timer of its next poll (POLL_TIMER_QUEUE_URL). */
  timers?: JobQueue;
}

/** What the local mode changes: its logger and observer, and its clock, which may run faster than real time. */
export interface RuntimeOverrides {
  logger?: StructuredLogger;
  /** Told what the handlers did; in Lambda, structured log lines. */
  observer?: Observer;
  now?: () => number;
  /**
   * The real clock claims and leases are timed on; Date.now unless a test moves it. The local mode
   * never sets it: its fast clock is `now`, and a lease on a fast clock would end while its holder
   * still works.
   */
  wallClock?: () => number;
  /** Clock seconds per real second (the simulator's speed); SQS delays are divided by it. */
  timeScale?: number;
  /** How evidence downloads are going, for a live display. */
  evidenceProgress?: EvidenceDependencies["progress"];
  /** Smaller pages and chunks than production's, for tests that cross their boundaries with fewer events. */
  pollSizes?: Pick<PollerDependencies, "chunkEvents" | "pageEvents" | "scanSerials">;
  /** Test seams of the poll: a checkpoint to stall or crash it at a step, a shorter lease margin. */
  pollSeams?: Pick<PollerDependencies, "checkpoint" | "leaseMarginMs">;
}

/**
 * Everything a handler needs, built once per Lambda container from its environment: clients
 * (the AWS SDK reads region, credentials and endpoints from the environment), stores, and one
 * device-cloud client and rule set per account.
 */
export async function buildRuntime(
  env: Readonly<Record<string, string | undefined>>,
  overrides: RuntimeOverrides = {},
): Promise<PollerRuntime> {
  const log = overrides.logger ?? logger;
  const config = parseEnv(pollerEnvSchema, env);
  const table = tableRef(env, config.TABLE_NAME);
  const sqs = withoutSdkLogging(new SQSClient(awsClientConfig(env, "SQS")));
  const sns = withoutSdkLogging(new SNSClient(awsClientConfig(env, "SNS")));
  const observer = overrides.observer ?? logObserver(log);
  const now = overrides.now ?? Date.now;
  const wallClock = overrides.wallClock ?? Date.now;
  const shared = {
    cursors: new CursorStore(table),
    // Leases and claims run on the real clock, whatever `now` is (docs/design/exactly-once.md).
    lock: new AccountLock(table),
    alerts: new AlertStore(table),
    publications: new PublicationStore(table),
    states: new RuleStateStore(table),
    offlineChecks: new OfflineCheckStore(table),
    rejected: new RejectedEventStore(table),
    publisher: new SnsAlertPublisher(sns, config.ALERTS_TOPIC_ARN),
    evidenceQueue: new SqsSender(sqs, config.EVIDENCE_QUEUE_URL),
    // Woken when the poll reads their device's Online event.
    parkedEvidence: new ParkedJobStore(table),
    confirmQueue: new SqsSender(sqs, config.CONFIRM_QUEUE_URL, undefined, overrides.timeScale),
    ...(config.ESCALATION_QUEUE_URL && {
      escalationQueue: new SqsSender(sqs, config.ESCALATION_QUEUE_URL, undefined, overrides.timeScale),
    }),
    ...(config.WEBHOOK_QUEUE_URL && { webhookQueue: new SqsSender(sqs, config.WEBHOOK_QUEUE_URL) }),
    setAside: new SetAside({
      records: new SetAsideStore(table),
      ...(config.OPS_TOPIC_ARN && { ops: new SnsOpsChannel(sns, config.OPS_TOPIC_ARN) }),
      observer,
      logger: log,
      now,
      wallClock,
    }),
    logger: log,
    observer,
    now,
    wallClock,
    ...overrides.pollSizes,
    ...overrides.pollSeams,
    ...(config.PUBLIC_BASE_URL &&
      config.SHARE_LINK_SECRET && {
        alertLinks: new AlertLinks(new ShareStore(table), {
          baseUrl: config.PUBLIC_BASE_URL,
          secret: config.SHARE_LINK_SECRET,
          lifetimeMs: config.SHARE_LINK_HOURS * 3_600_000,
        }),
      }),
  };
  const clients = deviceCloudClients(config.DEVICE_CLOUD_ACCOUNTS, env, log);
  const rulesOf = async (account: { id: string; rulesFile?: string | undefined }) => ({
    id: account.id,
    rules: account.rulesFile ? await loadRulesFile(account.rulesFile) : DEFAULT_RULES,
  });
  const accounts = await Promise.all(config.DEVICE_CLOUD_ACCOUNTS.map(rulesOf));
  const groupsFile = config.GROUPS_FILE ? await loadGroupsFile(config.GROUPS_FILE) : NO_GROUPS;
  if (config.GROUPS_FILE) {
    // Checked against every account of the stage: in a deployed stage a runtime holds the one account
    // its schedule names (poll.ts), and the groups file names them all.
    const stageAccounts = env[ACCOUNTS_FILE_ENV]
      ? await Promise.all((await readAccountsFile(env)).map(rulesOf))
      : accounts;
    validateRouting(groupsFile, stageAccounts, { source: config.GROUPS_FILE });
  }
  const router = new Router(groupsFile, config.FLEET_TIME_ZONE, {
    items: new DynamoRoutingItemStore(table),
    smsCaps: new DynamoSmsCapStore(table, groupsFile.smsCaps),
  });
  // Each catch-up's stale alerts, told to the groups they would have gone to once it has caught up.
  const staleSummaries = new StaleSummaryNotices({
    store: new StaleSummaryStore(table),
    claims: new NoticeClaims(table),
    publisher: shared.publisher,
    alerts: shared.alerts,
    groups: groupsFile,
    fleetTimeZone: config.FLEET_TIME_ZONE,
    ...(shared.alertLinks && { linkOf: alertLinkOf(shared.alertLinks) }),
    observer,
    wallClock,
  });
  const pollers = await Promise.all(
    config.DEVICE_CLOUD_ACCOUNTS.map(async (account, index) => ({
      settings: {
        account: account.id,
        rules: (accounts[index] as (typeof accounts)[number]).rules,
        fleetTimeZone: config.FLEET_TIME_ZONE,
        gps: { speedUnit: account.gpsSpeedUnit, budgetMs: account.gpsLookupBudgetMs },
        ...(account.startSerialno !== undefined && { startSerialno: account.startSerialno }),
        ...(config.PUBLIC_BASE_URL && { linkBaseUrl: config.PUBLIC_BASE_URL }),
      },
      deps: { ...shared, router, staleSummaries, client: clients.get(account.id) as DeviceCloudClient },
      // Built once per container: a warm container's next run reads no rule state while the
      // cursor is where its last run left it.
      carry: new TickCarry(),
    })),
  );
  return {
    config,
    pollers,
    observer: shared.observer,
    logger: log,
    // Wall-clock delays, never scaled: a chain polls every few real seconds in the local mode too.
    ...(config.POLL_TIMER_QUEUE_URL && { timers: new SqsSender(sqs, config.POLL_TIMER_QUEUE_URL) }),
  };
}

/** One device-cloud client per account; the password comes from the variable the account names. */
export function deviceCloudClients(
  accounts: readonly AccountConfig[],
  env: Readonly<Record<string, string | undefined>>,
  log: StructuredLogger = logger,
): Map<string, DeviceCloudClient> {
  return new Map(
    accounts.map((account) => {
      const password = env[account.passwordEnv];
      if (!password)
        throw new ConfigError([`${account.passwordEnv}: missing (the password of account ${account.id})`]);
      const client = new DeviceCloudClient({
        baseUrl: account.baseUrl,
        credentials: { username: account.username, password },
        timeoutMs: account.timeoutMs,
        playback: { responseTimeoutMs: account.playbackTimeoutMs, idleTimeoutMs: account.playbackTimeoutMs },
        logger: log,
      });
      return [account.id, client];
    }),
  );
}
