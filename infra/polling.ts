import { Duration, type Stack } from "aws-cdk-lib";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import * as sqs from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import { Config, type Function as SstFunction } from "sst/constructs";
import { SQS_EVENT_SOURCE_MIN_CONCURRENCY } from "../packages/core/src/aws-limits.js";
import { type Alerting, grantPublishAlerts, grantTellOps } from "./alerting.js";
import {
  allow,
  allowDeviceCloudSecrets,
  CONFIRM_TIMEOUT,
  type FunctionBase,
  pipelineFunction,
  youngGeneration,
} from "./functions.js";
import type { Queues } from "./queues.js";
import { grantSetAside } from "./set-aside.js";
import { POLLER_TIMEOUT_SECONDS, type StageConfig } from "./stage-config.js";
import type { Storage } from "./storage.js";

export interface Polling {
  poller: SstFunction;
  confirm: SstFunction;
  /** SHARE_LINK_SECRET: the escalate function binds it too, to put each alert's link back. */
  linkSecret: Config.Secret;
}

const POLLER_SEMI_SPACE_MIB = 1;

// BatchWriteItem: the poller writes rule states 25 at a time.
const POLLER_ITEM_ACTIONS = [
  "dynamodb:GetItem",
  "dynamodb:PutItem",
  "dynamodb:UpdateItem",
  "dynamodb:DeleteItem",
  "dynamodb:Query",
  "dynamodb:BatchWriteItem",
];

/** The scheduled poller and the Offline confirmation it queues work for. */
export function buildPolling(
  stack: Stack,
  config: StageConfig,
  base: FunctionBase,
  { table }: Pick<Storage, "table">,
  alerting: Alerting,
  {
    evidenceQueue,
    confirmQueue,
    escalationQueue,
  }: Pick<Queues, "evidenceQueue" | "confirmQueue" | "escalationQueue">,
): Polling {
  // Derives each alert's link token from its id (packages/core/src/share/token.ts), so no token is
  // stored: `npx sst secrets set SHARE_LINK_SECRET <32+ random characters>`. Only the functions that
  // send messages about an alert read it: these two, the evidence function (infra/evidence.ts) and
  // the escalate function (infra/escalation.ts).
  const linkSecret = new Config.Secret(stack, "SHARE_LINK_SECRET");
  const bind = [...(base.common.bind ?? []), linkSecret];
  // A young generation of 1 MiB semi-spaces: a catch-up's garbage (each page's answer, its parsed
  // events) dies young. With the runtime's own 6 MiB at 128 MB, catch-ups of 3,000, 25,000 and
  // 100,000 events peaked at 104.9, 114.6 and 120.8 MiB; with 2 MiB at 92.7, 102.5 and 103.0; with
  // 1 MiB at 93.8, 98.3 and 100.0 (npm run bench, section 3b, pages of 2,000; docs/PERFORMANCE.md).
  const young = youngGeneration(stack, POLLER_SEMI_SPACE_MIB);
  const chained = config.pollEverySeconds < 60;
  const timerConcurrency = Math.max(SQS_EVENT_SOURCE_MIN_CONCURRENCY, config.accounts.length);
  // Each account's chain of polls waits here, a message per poll delayed until it is due
  // (packages/core/src/poller/poll-timer.ts). No dead-letter queue: a timer is worth nothing once
  // its chain's minute has passed (the handler drops it, and the watchdog has started the next
  // chain), so one that failed is kept only a few minutes and never redriven.
  const pollTimerQueue = chained ? pollTimers(stack) : undefined;
  const poller = pipelineFunction(stack, "Poller", base, {
    copyFiles: [...(base.accounts.copyFiles ?? []), ...young.copyFiles],
    bind,
    handler: "packages/functions/src/poll.handler",
    timeout: POLLER_TIMEOUT_SECONDS,
    memorySize: config.pollerMemoryMb,
    // Each account's watchdog runs at the minute, while the chains' polls come from the queue's
    // mapping, which runs at most `timerConcurrency` at once: room for both, so a watchdog is never
    // throttled by timers (the lease lets one poll of an account work at a time).
    reservedConcurrentExecutions: config.accounts.length + (chained ? timerConcurrency : 0),
    // No source maps: parsing them took 12 MiB of a catch-up's peak, which must fit the 128 MB a
    // fast latency mode is priced at (npm run bench, section 3b); its logs name errors, not stacks.
    environment: {
      ...base.common.environment,
      ...young.environment,
      ...base.accounts.environment,
      ...(pollTimerQueue && {
        POLL_EVERY_SECONDS: String(config.pollEverySeconds),
        POLL_TIMER_QUEUE_URL: pollTimerQueue.queueUrl,
      }),
      // Told of every record set aside (packages/core/src/setaside).
      OPS_TOPIC_ARN: alerting.opsTopic.topicArn,
    },
  });
  // A watchdog run that waits behind running ones (the reserved concurrency) is worthless a minute
  // later: the next one polls the same events. Drop it instead of letting invocations pile up.
  poller.configureAsyncInvoke({ maxEventAge: Duration.seconds(60), retryAttempts: 0 });
  if (pollTimerQueue) {
    // One poll per timer; timers of several accounts that are due together share an invocation.
    poller.addEventSource(
      new SqsEventSource(pollTimerQueue, {
        batchSize: 10,
        maxConcurrency: timerConcurrency,
      }),
    );
    allow(poller, ["sqs:SendMessage"], [pollTimerQueue.queueArn]);
  }
  // One schedule per account, invoking the poller with `{ "account": "<id>" }`: each account is
  // polled by its own run, so a slow or failing device cloud never delays another's alerts. With a
  // chain, it is the chain's watchdog: each run starts the minute's chain, so a chain that stopped
  // (a lost timer, a failing function) polls again within a minute.
  for (const account of config.accounts) {
    new events.Rule(stack, `PollSchedule-${account.id}`, {
      description: `Polls device-cloud account ${account.id}${chained ? `, every ${config.pollEverySeconds} s by a chain it starts each minute` : ""}`,
      schedule: events.Schedule.rate(Duration.minutes(config.scheduleMinutes)),
      targets: [
        new targets.LambdaFunction(poller, {
          retryAttempts: 0,
          event: events.RuleTargetInput.fromObject({ account: account.id }),
        }),
      ],
    });
  }

  const confirm = pipelineFunction(stack, "Confirm", base, {
    copyFiles: base.accounts.copyFiles,
    bind,
    handler: "packages/functions/src/confirm.handler",
    timeout: CONFIRM_TIMEOUT.toSeconds(),
    memorySize: 256,
    environment: {
      ...base.sourceMapped,
      ...base.accounts.environment,
      OPS_TOPIC_ARN: alerting.opsTopic.topicArn,
    },
  });
  confirm.addEventSource(new SqsEventSource(confirmQueue, { batchSize: 10, reportBatchItemFailures: true }));

  // ---- least privilege: named actions on named resources ----
  allow(poller, POLLER_ITEM_ACTIONS, [table.tableArn]);
  allowDeviceCloudSecrets(stack, poller);
  grantPublishAlerts(poller, alerting);
  grantTellOps(poller, alerting);
  // Both publish alerts, so both schedule the escalation of those that escalate.
  const sendTo = [evidenceQueue.queueArn, confirmQueue.queueArn, escalationQueue.queueArn];
  allow(poller, ["sqs:SendMessage"], sendTo);

  allow(
    confirm,
    ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"],
    [table.tableArn],
  );
  grantPublishAlerts(confirm, alerting);
  grantSetAside(confirm, alerting, table);
  allowDeviceCloudSecrets(stack, confirm);
  allow(confirm, ["sqs:SendMessage"], sendTo);
  return { poller, confirm, linkSecret };
}

function pollTimers(stack: Stack): sqs.Queue {
  const queue = new sqs.Queue(stack, "PollTimerQueue", {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: Duration.seconds(POLLER_TIMEOUT_SECONDS * 2),
    retentionPeriod: Duration.minutes(5),
  });
  NagSuppressions.addResourceSuppressions(queue, [
    {
      id: "AwsSolutions-SQS3",
      reason:
        "Poll timers: a timer that failed is stale a minute later, and the watchdog schedule starts the next chain.",
    },
  ]);
  return queue;
}
