import { Duration, type Stack } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as actions from "aws-cdk-lib/aws-cloudwatch-actions";
import type * as sns from "aws-cdk-lib/aws-sns";
import type { Function as SstFunction } from "sst/constructs";
import type { Queues } from "./queues.js";
import { runbook } from "./runbook.js";
import type { StageConfig } from "./stage-config.js";

/**
 * A metric the handlers emit through Powertools: over every account, or (the cursor lag only, see
 * publishPollMetrics) one account's.
 */
const metric = (name: string, statistic: string, account?: string) =>
  new cloudwatch.Metric({
    namespace: "FleetAlerts",
    metricName: name,
    dimensionsMap: { service: "fleet-alerts", ...(account !== undefined && { account }) },
    statistic,
    period: Duration.minutes(5),
  });

export interface Observed {
  config: StageConfig;
  dashboardName: string;
  opsTopic: sns.Topic;
  poller: SstFunction;
  evidence: SstFunction;
  queues: Pick<Queues, "evidenceQueue" | "evidenceDlq" | "confirmDlq" | "escalationDlq">;
}

/** Alarms to the ops topic, and one dashboard of the pipeline. */
export function buildObservability(
  stack: Stack,
  { config, dashboardName, opsTopic, poller, evidence, queues }: Observed,
) {
  const alarm = (id: string, props: cloudwatch.AlarmProps) => {
    const created = new cloudwatch.Alarm(stack, id, {
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      ...props,
    });
    created.addAlarmAction(new actions.SnsAction(opsTopic));
    return created;
  };
  const above = cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;
  alarm("PollerErrors", {
    metric: poller.metricErrors({ period: Duration.minutes(5) }),
    threshold: 3,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription: `The poller failed three times in five minutes: alerts are delayed.${runbook("pollererrors")}`,
  });
  // One per account (0.10 USD a month each): an account whose device cloud is down lags alone.
  for (const { id } of config.accounts)
    alarm(`CursorLag-${id}`, {
      metric: metric("CursorLagSeconds", "Maximum", id),
      threshold: config.lagAlarmSeconds,
      evaluationPeriods: 2,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      // No data means the poller is not reporting at all: that is lag too.
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      alarmDescription: `Account ${id}: the oldest unread event is older than the lag threshold.${runbook("cursorlag-one-per-account")}`,
    });
  // A device gone wrong is capped per hour (routing SMS caps); this catches what caps cannot.
  alarm("SmsSpend", {
    metric: new cloudwatch.Metric({
      namespace: "AWS/SNS",
      metricName: "SMSMonthToDateSpentUSD",
      statistic: "Maximum",
      period: Duration.hours(1),
    }),
    threshold: config.smsMonthlyBudgetUsd,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription: `This month's SMS spend reached the stage's smsMonthlyBudgetUsd.${runbook("smsspend")}`,
  });
  alarm("EvidenceDlqNotEmpty", {
    metric: queues.evidenceDlq.metricApproximateNumberOfMessagesVisible(),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription: `Evidence jobs failed for good: see the evidence function's logs for the reason.${runbook("evidencedlqnotempty")}`,
  });
  alarm("ConfirmDlqNotEmpty", {
    metric: queues.confirmDlq.metricApproximateNumberOfMessagesVisible(),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription: `Offline confirmations failed for good.${runbook("confirmdlqnotempty")}`,
  });
  alarm("EscalationDlqNotEmpty", {
    metric: queues.escalationDlq.metricApproximateNumberOfMessagesVisible(),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription: `Escalations failed for good: an unacknowledged alert may not have reached its next level.${runbook("escalationdlqnotempty")}`,
  });
  alarm("EvidenceFailures", {
    metric: evidence.metricErrors({ period: Duration.minutes(5) }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription: `The evidence function failed.${runbook("evidencefailures")}`,
  });
  alarm("RejectedEvents", {
    metric: metric("EventsRejected", "Sum"),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription: `The device cloud sent events that do not match its spec; they are stored as REJECTED items.${runbook("rejectedevents")}`,
  });

  const functionWidget = (title: string, fn: SstFunction) =>
    new cloudwatch.GraphWidget({
      title,
      left: [fn.metricInvocations(), fn.metricErrors()],
      right: [fn.metricDuration()],
    });
  new cloudwatch.Dashboard(stack, "Dashboard", {
    dashboardName,
    widgets: [
      [
        new cloudwatch.GraphWidget({
          title: "Events and alerts",
          left: [
            metric("EventsRead", "Sum"),
            metric("AlertsPublished", "Sum"),
            metric("AlertsSuppressed", "Sum"),
          ],
        }),
        new cloudwatch.GraphWidget({
          title: "Cursor lag (s)",
          // The highest lag of any account: the dashboard stays one widget at a hundred accounts.
          left: [
            new cloudwatch.MathExpression({
              label: "highest",
              expression: `MAX(SEARCH('{FleetAlerts,account,service} MetricName="CursorLagSeconds"', 'Maximum', 300))`,
              period: Duration.minutes(5),
            }),
          ],
        }),
        new cloudwatch.GraphWidget({
          title: "Rejected and failed",
          left: [metric("EventsRejected", "Sum"), metric("AlertsFailed", "Sum")],
        }),
      ],
      [
        functionWidget("Poller", poller),
        functionWidget("Evidence", evidence),
        new cloudwatch.GraphWidget({
          title: "Queues",
          left: [
            queues.evidenceQueue.metricApproximateNumberOfMessagesVisible(),
            queues.evidenceDlq.metricApproximateNumberOfMessagesVisible(),
            queues.confirmDlq.metricApproximateNumberOfMessagesVisible(),
            queues.escalationDlq.metricApproximateNumberOfMessagesVisible(),
          ],
        }),
      ],
    ],
  });
}
