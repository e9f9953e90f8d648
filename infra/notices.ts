import { Duration, type Stack } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as actions from "aws-cdk-lib/aws-cloudwatch-actions";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import type { Config, Function as SstFunction } from "sst/constructs";
import type { RecorderAuditSettings } from "../packages/core/src/recorder/settings.js";
import { type Alerting, grantPublishAlerts } from "./alerting.js";
import { allow, type FunctionBase, pipelineFunction } from "./functions.js";
import { runbook } from "./runbook.js";
import { grantSetAside } from "./set-aside.js";
import type { Storage } from "./storage.js";

/**
 * A run reads a few items per group and account and publishes a few messages: well inside its
 * claims' leases (checked at synth: leases.ts).
 */
export const NOTICES_TIMEOUT = Duration.seconds(120);

/**
 * The notices function (packages/functions/src/notices.ts), every 5 minutes: quiet-hour summaries,
 * daily digests and SMS-cap summaries to the recipients of the stage's groups file, which is
 * bundled with it, and the sweep of set-aside records whose notice to ops a crash left owed. In
 * every stage: without a groups file it only sweeps.
 */
export function buildNotices(
  stack: Stack,
  groupsFile: string | undefined,
  base: FunctionBase,
  { table }: Pick<Storage, "table">,
  alerting: Alerting,
  linkSecret: Config.Secret,
  recorderAudit: RecorderAuditSettings,
): SstFunction {
  // The digest's recorder summary reads the audit's items of every account of the stage.
  const accountsFile = base.accounts.environment.DEVICE_CLOUD_ACCOUNTS_FILE;
  const notices = pipelineFunction(stack, "Notices", base, {
    handler: "packages/functions/src/notices.handler",
    timeout: NOTICES_TIMEOUT.toSeconds(),
    memorySize: 256,
    copyFiles: [
      ...(groupsFile ? [{ from: groupsFile, to: "groups.json" }] : []),
      ...(base.accounts.copyFiles ?? []).filter((file) => file.to === accountsFile),
    ],
    // No device-cloud secrets: only the share-link secret, for the incident links it lists.
    bind: [linkSecret],
    environment: {
      ...base.sourceMapped,
      ...(groupsFile && { GROUPS_FILE: "groups.json" }),
      ...base.accounts.environment,
      RECORDER_AUDIT: JSON.stringify(recorderAudit),
      OPS_TOPIC_ARN: alerting.opsTopic.topicArn,
    },
  });
  // A failed run is not retried: the next one, 5 minutes later, takes up whatever is still owed.
  notices.configureAsyncInvoke({ maxEventAge: Duration.minutes(5), retryAttempts: 0 });
  new events.Rule(stack, "NoticesSchedule", {
    schedule: events.Schedule.rate(Duration.minutes(5)),
    targets: [new targets.LambdaFunction(notices, { retryAttempts: 0 })],
  });

  // ---- least privilege: named actions on named resources ----
  // Query: held and routed items, owed set-aside records; Get/Put/Update: claims, SMS hours, link
  // grants, set-aside records; BatchGet: alert records.
  allow(
    notices,
    [
      "dynamodb:Query",
      "dynamodb:GetItem",
      "dynamodb:PutItem",
      "dynamodb:UpdateItem",
      "dynamodb:BatchGetItem",
    ],
    [table.tableArn],
  );
  grantPublishAlerts(notices, alerting);
  grantSetAside(notices, alerting, table);

  const alarm = new cloudwatch.Alarm(stack, "NoticesErrors", {
    metric: notices.metricErrors({ period: Duration.minutes(15) }),
    threshold: 2,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    alarmDescription: `The notices function failed twice in 15 minutes: quiet-hour summaries, digests, SMS summaries or notices of set-aside records are late.${runbook("noticeserrors")}`,
  });
  alarm.addAlarmAction(new actions.SnsAction(alerting.opsTopic));
  return notices;
}
