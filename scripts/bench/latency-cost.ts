/**
 * What a latency mode costs one account a month (issue 17): the poller's runs (Lambda invocations
 * and duration at the memory priced), the schedule, and DynamoDB, for one account holding cost.ts's
 * FLEET. Per poll, the requests the backlog run's idle poll made; per poll that reads events, the
 * chunk's bookkeeping; per alert, its record (written once). SNS, SQS and S3
 * do not depend on the mode (cost.ts).
 */
import { AWS_PRICES, BILLING_UNITS } from "./aws-prices.js";
import type { BacklogFigures } from "./backlog.js";
import { FLEET } from "./cost.js";
import type { LatencyFigures } from "./latency.js";

/** AWS: "at 1,769 MB, a function has the equivalent of one vCPU"; below, a share in proportion. */
const MB_PER_VCPU = 1_769;
const HOURS_PER_MONTH = 730;

export interface ModeCostLine {
  item: string;
  quantity: number;
  usd: number;
}

export interface ModeCost {
  memoryMb: number;
  /** What Lambda bills for one run, in seconds. */
  billedSecondsPerRun: number;
  lines: ModeCostLine[];
  totalUsd: number;
}

export function latencyModeCost(
  runs: LatencyFigures["runs"],
  runEverySeconds: number,
  backlog: Pick<BacklogFigures, "idlePoll" | "requests" | "alerts" | "events" | "pipelineSeconds">,
  memoryMb: number,
): ModeCost {
  const prices = AWS_PRICES;
  const lines: ModeCostLine[] = [];
  const add = (item: string, quantity: number, usdEach: number) =>
    lines.push({ item, quantity: Math.round(quantity), usd: quantity * usdEach });
  const { idlePoll } = backlog;
  const count = (...operations: string[]) =>
    operations.reduce((total, operation) => total + (idlePoll.requests[`DynamoDB ${operation}`] ?? 0), 0);
  const idleRequests = Object.values(idlePoll.requests).reduce((total, requests) => total + requests, 0);

  const runsPerMonth = (3_600 / runEverySeconds) * HOURS_PER_MONTH;
  const polls = runsPerMonth * runs.pollsPerRun;
  const eventsPerMonth = (FLEET.devices * FLEET.eventsPerDevicePerDay * HOURS_PER_MONTH) / 24;
  // A run bills its polls' waits, as measured (first poll to last poll's start), and its last poll
  // as a fleet's poll would take: the idle poll and the poll's events (at the backlog run's time
  // per event) at the CPU share of `memoryMb` instead of this machine's core, and the round trips
  // the loopback hides (each AWS request, the device cloud's event query and device list). The
  // run's own end here is not used: every injected event alerts, so its last poll had far more to do.
  const slowdown = Math.max(1, MB_PER_VCPU / memoryMb); // its CPU share against a whole core
  const msPerEvent = (backlog.pipelineSeconds * 1000) / backlog.events;
  const lastPollMs =
    (idlePoll.milliseconds + (eventsPerMonth / polls) * msPerEvent) * slowdown +
    idleRequests * FLEET.awsRoundTripMs +
    2 * FLEET.deviceCloudRoundTripMs;
  const billedSecondsPerRun = runs.spanSeconds + lastPollMs / 1000;
  add("Lambda invocations (runs)", runsPerMonth, prices.lambda.request.usd);
  add(
    `Lambda GB-seconds at ${memoryMb} MB (arm64)`,
    (runsPerMonth * billedSecondsPerRun * memoryMb) / 1024,
    prices.lambda.armGbSecond.usd,
  );
  add("EventBridge scheduled invocations", runsPerMonth, prices.eventbridge.scheduledRuleInvocation.usd);

  // ---- DynamoDB, every poll: what the idle poll made (lease, cursor, and any rule states read) ----
  const statesReadUnits = Math.ceil(
    (FLEET.devices * FLEET.rulesWithState * FLEET.stateItemBytes) / BILLING_UNITS.dynamoReadUnitBytes,
  );
  add(
    "DynamoDB write units, every poll",
    polls * count("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem"),
    prices.dynamodb.writeRequestUnit.usd,
  );
  // A query or batch read in a poll that finds nothing reads the account's rule states: all of them
  // (none once a warm container keeps them, TickCarry).
  add(
    "DynamoDB read units, every poll",
    polls * (count("GetItem") + count("Query", "BatchGetItem") * statesReadUnits),
    prices.dynamodb.readRequestUnit.usd,
  );
  // A cold container reads them once. Assumed: a new container an hour (Lambda recycles warm ones
  // after some hours; a deployment or a run on another container also makes the next read them).
  add(
    "DynamoDB read units, rule states per cold start (1 an hour)",
    HOURS_PER_MONTH * statesReadUnits,
    prices.dynamodb.readRequestUnit.usd,
  );

  // ---- DynamoDB, the events: the same alerts in every mode, the bookkeeping per poll with events ----
  const alerts = eventsPerMonth * FLEET.alertingShare;
  // Events arrive at random (Poisson): the share of polls that read at least one.
  const pollsWithEvents = polls * (1 - Math.exp(-eventsPerMonth / polls));
  const alertWru = Math.ceil(FLEET.alertItemBytes / BILLING_UNITS.dynamoWriteUnitBytes);
  add(
    "DynamoDB write units, polls with events and alerts",
    // Cursor advanced, lease renewed; with alerts (counted as if every such poll had one), the
    // chunk's publication item opened and its published ids added (docs/ARCHITECTURE.md).
    pollsWithEvents * 4 +
      alerts * alertWru + // the alert record, written once (batched: units are per item all the same)
      alerts, // rule states, one small item per alert's rule and device
    prices.dynamodb.writeRequestUnit.usd,
  );
  add(
    "DynamoDB read units, polls with events", // the chunk's alert records, read back to publish
    pollsWithEvents,
    prices.dynamodb.readRequestUnit.usd,
  );

  return {
    memoryMb,
    billedSecondsPerRun: Math.round(billedSecondsPerRun * 100) / 100,
    lines: lines.map((line) => ({ ...line, usd: round(line.usd) })),
    totalUsd: round(lines.reduce((total, line) => total + line.usd, 0)),
  };
}

const round = (usd: number) => Math.round(usd * 100) / 100;
