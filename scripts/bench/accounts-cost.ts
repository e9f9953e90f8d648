/**
 * What the number of device-cloud accounts adds to a stage's monthly bill (issue 16): the same
 * fleet (cost.ts's FLEET) split over 1, 10 or 100 accounts. Only what grows with accounts is
 * counted: each account's scheduled poll (Lambda invocations and duration, EventBridge, DynamoDB
 * per poll), its lag metric and alarm, and the reads of its secrets from SSM. The events, alerts
 * and evidence cost the same however the fleet is split (cost.ts). Per-poll time and DynamoDB
 * requests are the idle poll the backlog run measured; prices are aws-prices.ts's (us-east-1).
 */
import { AWS_PRICES, BILLING_UNITS } from "./aws-prices.js";
import type { BacklogFigures } from "./backlog.js";
import { FLEET } from "./cost.js";
import type { SynthesizedHandlers } from "./handlers.js";

export const ACCOUNT_COUNTS = [1, 10, 100] as const;

/** Assumptions: stated, not measured. */
export const SCALE = {
  /**
   * The metrics publishPollMetrics emits (packages/functions/src/observability.ts): 14 over every
   * account, and CursorLagSeconds with an `account` dimension, one series per account.
   */
  pollMetricsOverAllAccounts: 14,
  pollMetricsPerAccount: 1,
  /** How long a Lambda container lives (AWS does not say; observed lifetimes are hours). */
  containerLifetimeHours: 2,
  /** Secrets per account: DEVICE_CLOUD_<ID>_BASE_URL, _USERNAME, _PASSWORD, in one GetParameters call. */
  secretsPerAccount: 3,
  /** The bench stage (no stage file) polls one account: its alarms are the fixed ones and one lag alarm. */
  benchStageAccounts: 1,
} as const;

const HOURS_PER_MONTH = 730;

export interface AccountsCostLine {
  item: string;
  quantity: number;
  usd: number;
}

export interface AccountsCostRow {
  accounts: number;
  lines: AccountsCostLine[];
  totalUsd: number;
  /** The same with every poll metric kept per account (what publishPollMetrics no longer does). */
  everyMetricPerAccountUsd: number;
}

export function accountsCost(
  backlog: Pick<BacklogFigures, "idlePoll">,
  stack: Pick<SynthesizedHandlers, "memoryMb" | "resourceCounts">,
): AccountsCostRow[] {
  return ACCOUNT_COUNTS.map((accounts) => costOf(accounts, backlog, stack));
}

function costOf(
  accounts: number,
  { idlePoll }: Pick<BacklogFigures, "idlePoll">,
  stack: Pick<SynthesizedHandlers, "memoryMb" | "resourceCounts">,
): AccountsCostRow {
  const prices = AWS_PRICES;
  const lines: AccountsCostLine[] = [];
  const add = (item: string, quantity: number, usdEach: number) =>
    lines.push({ item, quantity: Math.round(quantity), usd: quantity * usdEach });

  // ---- the schedule: one poll per account a minute ----
  const polls = accounts * FLEET.pollsPerHour * HOURS_PER_MONTH;
  const idleRequests = Object.values(idlePoll.requests).reduce((total, count) => total + count, 0);
  // The measured idle poll, plus the waits the loopback emulators hide: each AWS request, and the
  // device cloud's event query and device list.
  const pollMs =
    idlePoll.milliseconds + idleRequests * FLEET.awsRoundTripMs + 2 * FLEET.deviceCloudRoundTripMs;
  add("Lambda poll invocations", polls, prices.lambda.request.usd);
  add(
    "Lambda poll GB-seconds (arm64)",
    (polls * pollMs * stack.memoryMb.poll) / 1024 / 1000,
    prices.lambda.armGbSecond.usd,
  );
  add("EventBridge scheduled invocations", polls, prices.eventbridge.scheduledRuleInvocation.usd);

  // ---- DynamoDB: the idle poll's requests (lease, cursor), and each account reading its rule states ----
  const count = (...operations: string[]) =>
    operations.reduce((total, operation) => total + (idlePoll.requests[`DynamoDB ${operation}`] ?? 0), 0);
  const devicesPerAccount = FLEET.devices / accounts;
  const statesReadUnits = Math.max(
    1,
    Math.ceil(
      (devicesPerAccount * FLEET.rulesWithState * FLEET.stateItemBytes) / BILLING_UNITS.dynamoReadUnitBytes,
    ),
  );
  add(
    "DynamoDB write units (per poll)",
    polls * count("PutItem", "UpdateItem", "DeleteItem"),
    prices.dynamodb.writeRequestUnit.usd,
  );
  add(
    "DynamoDB read units (per poll)",
    polls * (count("GetItem") + count("Query") * statesReadUnits),
    prices.dynamodb.readRequestUnit.usd,
  );
  // A warm container keeps them (TickCarry): read on a cold start, assumed one an hour per account.
  add(
    "DynamoDB read units (rule states, cold starts)",
    accounts * HOURS_PER_MONTH * statesReadUnits,
    prices.dynamodb.readRequestUnit.usd,
  );

  // ---- CloudWatch: one lag metric and alarm per account ----
  const metrics = SCALE.pollMetricsOverAllAccounts + SCALE.pollMetricsPerAccount * accounts;
  add("CloudWatch custom metrics", metrics, prices.cloudwatch.customMetricMonth.usd);
  const fixedAlarms = (stack.resourceCounts["AWS::CloudWatch::Alarm"] ?? 0) - SCALE.benchStageAccounts;
  add(
    "CloudWatch alarms (one lag alarm per account)",
    fixedAlarms + accounts,
    prices.cloudwatch.standardAlarmMonth.usd,
  );

  // ---- SSM: an account's secrets, read once per container that handles it ----
  // Every minute all the accounts' runs start together: about `accounts` poller containers, each
  // serving runs of accounts at random and reading each account's secrets on its first run.
  const runsPerContainer = SCALE.containerLifetimeHours * FLEET.pollsPerHour;
  const accountsPerContainer = accounts * (1 - (1 - 1 / accounts) ** runsPerContainer);
  const containerLives = accounts * (HOURS_PER_MONTH / SCALE.containerLifetimeHours);
  const secretReads = containerLives * accountsPerContainer;
  add("SSM GetParameters (secrets, per cold account)", secretReads, prices.ssm.getParametersStandard.usd);
  add("KMS decrypts of those secrets", secretReads * SCALE.secretsPerAccount, prices.kms.request.usd);

  const totalUsd = lines.reduce((total, line) => total + line.usd, 0);
  const allPerAccount =
    (SCALE.pollMetricsOverAllAccounts + SCALE.pollMetricsPerAccount) *
    accounts *
    prices.cloudwatch.customMetricMonth.usd;
  const metricsUsd = metrics * prices.cloudwatch.customMetricMonth.usd;
  return {
    accounts,
    lines: lines.map((line) => ({ ...line, usd: round(line.usd) })),
    totalUsd: round(totalUsd),
    everyMetricPerAccountUsd: round(totalUsd - metricsUsd + allPerAccount),
  };
}

const round = (usd: number) => Math.round(usd * 100) / 100;
