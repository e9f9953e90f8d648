/**
 * What the number of device-cloud accounts adds to a stage's monthly bill (issues 16 and 32): the
 * same fleet (cost.ts's FLEET) split over 1, 10 or 100 accounts, each polled in production's mode.
 * Counted: each account's polls (Lambda invocations and duration, the timer queue's messages, the
 * EventBridge watchdog, DynamoDB per poll; latency-cost.ts's accountPollCost over the measured
 * poll, poll-profile.ts), the timer queue's idle long polls once per stage, the accounts' lag
 * metrics and alarms, and the reads of their secrets from SSM. The alerts' own writes are in the
 * polls with events; their messages and evidence cost the same however the fleet is split
 * (cost.ts). Prices are aws-prices.ts's (us-east-1).
 */
import { AWS_PRICES } from "./aws-prices.js";
import { FLEET } from "./cost.js";
import type { SynthesizedHandlers } from "./handlers.js";
import { accountPollCost, sharedTimerQueue } from "./latency-cost.js";
import type { PollProfile } from "./poll-profile.js";

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
  pollEverySeconds: number,
  profile: PollProfile,
  stack: Pick<SynthesizedHandlers, "resourceCounts">,
): AccountsCostRow[] {
  return ACCOUNT_COUNTS.map((accounts) => costOf(accounts, pollEverySeconds, profile, stack));
}

function costOf(
  accounts: number,
  pollEverySeconds: number,
  profile: PollProfile,
  stack: Pick<SynthesizedHandlers, "resourceCounts">,
): AccountsCostRow {
  const prices = AWS_PRICES;
  const lines: AccountsCostLine[] = [];
  const add = (item: string, quantity: number, usdEach: number) =>
    lines.push({ item, quantity: Math.round(quantity), usd: quantity * usdEach });

  // ---- each account's polls, its share of the fleet's devices; the timer queue's long polls once ----
  const perAccount = accountPollCost(pollEverySeconds, profile, FLEET.devices / accounts);
  for (const line of [...perAccount.lines, ...sharedTimerQueue(pollEverySeconds)]) {
    const times = perAccount.lines.includes(line) ? accounts : 1;
    lines.push({ item: line.item, quantity: Math.round(line.quantity * times), usd: line.usd * times });
  }

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
  // About `accounts` poller containers, each serving polls of accounts at random (the watchdogs and
  // the timer queue's deliveries go to any warm container) and reading each account's secrets on
  // its first poll of it.
  const runsPerContainer = SCALE.containerLifetimeHours * (3_600 / pollEverySeconds);
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
