import { Logger } from "@aws-lambda-powertools/logger";
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { Observation, Observer, StructuredLogger } from "@fleet-alerts/core";
import type { PollFailure, PollSummary } from "@fleet-alerts/core/poller";
import middy from "@middy/core";
import type { Context } from "aws-lambda";

/** One Logger and one Metrics for every handler: structured JSON logs, CloudWatch EMF metrics. */
export const logger = new Logger({ serviceName: "fleet-alerts" });
export const metrics = new Metrics({ namespace: "FleetAlerts", serviceName: "fleet-alerts" });

/**
 * A handler as Powertools' examples write one: Middy with the Logger's Lambda context injection
 * (request id, function, cold start on every line), and the keys a handler appends for the record
 * it works on (account, serialno, alert id) reset at the end of each invocation. Middy's early
 * time-out is off: the handlers keep their own deadlines (the poller checkpoints before it).
 */
export function lambdaHandler<Event, Result, Ctx extends Partial<Context>>(
  handler: (event: Event, context: Ctx) => Promise<Result>,
): (event: Event, context: Ctx) => Promise<Result> {
  // Middy types the context as Lambda's whole Context; tests and the local mode pass the part used.
  const wrapped = middy((event: Event, context: Context) => handler(event, context as Ctx), {
    timeoutEarlyInMillis: 0,
  }).use(injectLambdaContext(logger, { resetKeys: true }));
  return (event, context) => wrapped(event, context as Context);
}

/**
 * The lag of each account whose poll failed: the time since it last caught up, so that its lag grows
 * through an outage of the device cloud (unknown before any run caught up).
 */
export function publishFailedLags(failures: readonly PollFailure[]): void {
  for (const { account, lagSeconds } of failures)
    if (lagSeconds !== undefined) publishCursorLag(account, lagSeconds);
}

/** How far behind an account's cursor is: each account's lag alarm watches its own series. */
function publishCursorLag(account: string, lagSeconds: number): void {
  const lag = metrics.singleMetric();
  lag.addDimension("account", account);
  lag.addMetric("CursorLagSeconds", MetricUnit.Seconds, lagSeconds);
}

/**
 * The poller's figures for one account. Only CursorLagSeconds has an `account` dimension: each
 * account's lag alarm needs its own series. The others are summed over the accounts (one series
 * each, whatever their number: CloudWatch bills each metric and dimension combination), the
 * account kept as a property of the log line, for Logs Insights.
 */
export function publishPollMetrics(summary: PollSummary, runMs: number): void {
  publishCursorLag(summary.account, summary.lagSeconds);
  metrics.addMetadata("account", summary.account);
  metrics.addMetric("EventsRead", MetricUnit.Count, summary.eventsRead);
  metrics.addMetric("AlertsPublished", MetricUnit.Count, summary.alertsPublished);
  metrics.addMetric("AlertsFailed", MetricUnit.Count, summary.alertsFailed);
  metrics.addMetric("AlertsSuppressed", MetricUnit.Count, summary.suppressed);
  metrics.addMetric("EventsStale", MetricUnit.Count, summary.stale);
  metrics.addMetric("EventsRejected", MetricUnit.Count, summary.rejected);
  metrics.addMetric("EvidenceJobsQueued", MetricUnit.Count, summary.evidenceJobs);
  // Where alert positions came from: a rise in LastKnown or Unknown, or in failed lookups, means
  // alerts say less about where the vehicle was at the event.
  metrics.addMetric("GpsLookups", MetricUnit.Count, summary.gpsLookups);
  metrics.addMetric("GpsLookupsFailed", MetricUnit.Count, summary.gpsLookupsFailed);
  metrics.addMetric("PositionsFromEvent", MetricUnit.Count, summary.positionsFromEvent);
  metrics.addMetric("PositionsFromTrack", MetricUnit.Count, summary.positionsFromTrack);
  metrics.addMetric("PositionsLastKnown", MetricUnit.Count, summary.positionsLastKnown);
  metrics.addMetric("PositionsUnknown", MetricUnit.Count, summary.positionsUnknown);
  metrics.addMetric("RunTime", MetricUnit.Milliseconds, runMs);
  metrics.publishStoredMetrics();
}

/**
 * One level sent to the escalation topic, as the metric `Escalations`: a rise means alerts going
 * unacknowledged. No `account` dimension (one series whatever the number of accounts); the account
 * is a property of the line. Published at once (a single metric), as jobs of one batch run side
 * by side and may belong to different accounts.
 */
export function publishEscalationMetric(account: string): void {
  const single = metrics.singleMetric();
  single.addMetadata("account", account);
  single.addMetric("Escalations", MetricUnit.Count, 1);
}

/**
 * A record set aside (setaside/), as the metric `RecordsSetAside`: AWS refused it for good and ops
 * were told. No `account` dimension, as for `Escalations`; published at once.
 */
export function publishSetAsideMetric(account: string): void {
  const single = metrics.singleMetric();
  single.addMetadata("account", account);
  single.addMetric("RecordsSetAside", MetricUnit.Count, 1);
}

/**
 * A poll stopped by the fence (poller/, cursor/fence.ts), as the metric `PollsFenced`: a poll
 * outlived its lease (a stalled process, a clock far behind) and another took the account over. It
 * sent nothing more, so nothing went out twice; a rise means invocations stalled past their
 * time-out. No `account` dimension, as for `Escalations`; published at once.
 */
export function publishFencedMetric(account: string): void {
  const single = metrics.singleMetric();
  single.addMetadata("account", account);
  single.addMetric("PollsFenced", MetricUnit.Count, 1);
}

/**
 * In Lambda, each observation is one structured log line named by its type, with ids and
 * decisions only: the subscriber body of a published alert (driver, position) is personal data
 * and never logged, nor is an alert's or an escalation's link (the token in it opens the alert).
 */
export function logObserver(log: StructuredLogger = logger): Observer {
  return {
    observe(observation) {
      const { type, ...attributes } = withoutPersonalData(observation);
      log[levelOf(observation)](type, attributes);
      if (observation.type === "record-set-aside") publishSetAsideMetric(observation.account);
      if (observation.type === "poll-fenced") publishFencedMetric(observation.account);
    },
  };
}

function withoutPersonalData(observation: Observation): { type: string } & Record<string, unknown> {
  if (observation.type === "alert-published") {
    const { body: _body, sms: _sms, link: _link, ...ids } = observation;
    return ids;
  }
  if (observation.type === "alert-escalated") {
    const { link: _link, ...ids } = observation;
    return ids;
  }
  return observation;
}

function levelOf(observation: Observation): keyof StructuredLogger {
  switch (observation.type) {
    case "alert-failed":
    case "record-set-aside":
      return "error";
    case "evidence-failed":
    case "evidence-timestamp-failed":
      return observation.final ? "error" : "warn";
    case "event-rejected":
    case "evidence-unavailable":
    case "evidence-at-risk":
    case "poll-fenced":
      return "warn";
    default:
      return "info";
  }
}
