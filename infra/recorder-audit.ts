import { Duration, type Stack } from "aws-cdk-lib";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import type { Config, Function as SstFunction } from "sst/constructs";
import { type Alerting, grantPublishAlerts, grantTellOps } from "./alerting.js";
import { allow, allowDeviceCloudSecrets, type FunctionBase, pipelineFunction } from "./functions.js";
import type { StageConfig } from "./stage-config.js";
import type { Storage } from "./storage.js";

/**
 * A run's Lambda deadline: `callsPerRun` (1,000 by default) sequential device-cloud calls of a few
 * hundred milliseconds each, and the margin (RECORDER_AUDIT_MARGIN_SECONDS, 30 s). Shorter than the
 * shortest schedule (5 minutes): an account's runs never overlap, and if they did, the cursor's
 * conditional move would stop the second.
 */
export const RECORDER_AUDIT_TIMEOUT = Duration.minutes(4);

/**
 * The recorder audit (packages/functions/src/recorder-audit.ts): one EventBridge rule per account,
 * every `recorderAudit.runEveryMinutes`, invoking it with `{ "account": "<id>" }`; each run goes on
 * from the account's cursor within its call budget and raises "not recording" alerts as the
 * poller raises alerts (the alerts topic, webhook jobs). It reads the account's secrets, as the
 * poller does, and the share-link secret, for the alerts' incident links.
 */
export function buildRecorderAudit(
  stack: Stack,
  config: StageConfig,
  base: FunctionBase,
  { table }: Pick<Storage, "table">,
  alerting: Alerting,
  linkSecret: Config.Secret,
): SstFunction {
  const audit = pipelineFunction(stack, "RecorderAudit", base, {
    handler: "packages/functions/src/recorder-audit.handler",
    copyFiles: base.accounts.copyFiles,
    bind: [linkSecret],
    timeout: RECORDER_AUDIT_TIMEOUT.toSeconds(),
    memorySize: 256,
    // One run per account at a time.
    reservedConcurrentExecutions: config.accounts.length,
    environment: {
      ...base.sourceMapped,
      ...base.accounts.environment,
      RECORDER_AUDIT: JSON.stringify(config.recorderAudit),
      FLEET_UTC_OFFSET: config.fleetUtcOffset,
      OPS_TOPIC_ARN: alerting.opsTopic.topicArn,
    },
  });
  // A missed run is not retried: the next one goes on from the same cursor.
  audit.configureAsyncInvoke({ maxEventAge: Duration.minutes(5), retryAttempts: 0 });
  for (const account of config.accounts) {
    new events.Rule(stack, `RecorderAuditSchedule-${account.id}`, {
      description: `Recorder audit of device-cloud account ${account.id}`,
      schedule: events.Schedule.rate(Duration.minutes(config.recorderAudit.runEveryMinutes)),
      targets: [
        new targets.LambdaFunction(audit, {
          retryAttempts: 0,
          event: events.RuleTargetInput.fromObject({ account: account.id }),
        }),
      ],
    });
  }

  // ---- least privilege: named actions on named resources ----
  // Get/Put/Update/Query: the cursor and device items, alert records, routing items, link grants.
  allow(
    audit,
    ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"],
    [table.tableArn],
  );
  grantPublishAlerts(audit, alerting);
  grantTellOps(audit, alerting);
  allowDeviceCloudSecrets(stack, audit);
  return audit;
}
