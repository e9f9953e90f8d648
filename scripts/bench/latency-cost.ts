/**
 * What a latency mode costs one account a month (issue 32), for one account holding cost.ts's
 * FLEET, in the design that pays for polls, not for waits: the EventBridge rule invokes the poller
 * once a minute (the watchdog, which polls once), and below 60 s each poll sends the next as a
 * delayed message on the account's timer queue, which the poller consumes: one invocation, one
 * SendMessage, one receive and one delete per poll after the minute's first.
 *
 * Every per-poll figure is a measured poll's (poll-profile.ts: the real handler at the CPU share of
 * `memoryMb`, the device cloud 250 ms away): one that finds nothing, one that reads events none of
 * which alert, one with an alert; a fleet's poll is priced from them by how many events and alerts
 * it reads (events arrive at random: a Poisson number per interval). SNS, S3 and the alerts' other
 * jobs do not depend on the mode (cost.ts).
 */
import { AWS_PRICES, BILLING_UNITS } from "./aws-prices.js";
import { FLEET } from "./cost.js";
import type { PollKind, PollProfile } from "./poll-profile.js";

const HOURS_PER_MONTH = 730;
const MINUTES_PER_MONTH = 60 * HOURS_PER_MONTH;
/** Lambda polls an SQS event source with this many long polls of 20 s each, messages or not. */
const LONG_POLLS_PER_MINUTE = FLEET.sqsPollersPerQueue * 3;

export interface ModeCostLine {
  item: string;
  quantity: number;
  usd: number;
}

export interface ModeCost {
  memoryMb: number;
  polls: number;
  /** Share of polls that read at least one event (Poisson at the fleet's rate). */
  pollsWithEventsShare: number;
  /** What Lambda bills a poll: one that finds nothing, one that reads the interval's events. */
  billedMs: { empty: number; withEvents: number };
  lines: ModeCostLine[];
  totalUsd: number;
}

/** A fleet's poll of `events` events, `alerts` of them alerting, from the measured kinds of poll. */
export function fleetPoll(profile: PollProfile, events: number, alerts: number) {
  const { events: read, manyEvents, alerting } = profile;
  // What one more alert, or one more event read, adds to a poll (never less than nothing: noise).
  const added = (more: PollKind, by: number, figure: (kind: PollKind) => number) =>
    Math.max(0, (figure(more) - figure(read)) / Math.max(1, by));
  const perAlert = (figure: (kind: PollKind) => number) =>
    added(alerting, alerting.alerts - read.alerts, figure);
  const moreEvents = Math.max(0, events - alerts - read.eventsRead);
  const perEventMs = added(manyEvents, manyEvents.eventsRead - read.eventsRead, (kind) => kind.milliseconds);
  const requests = read.awsRequests + alerts * perAlert((kind) => kind.awsRequests);
  return {
    // Each AWS request pays the round trip the loopback hides; the device cloud's are in the measure.
    billedMs:
      read.milliseconds +
      moreEvents * perEventMs +
      alerts * perAlert((kind) => kind.milliseconds) +
      requests * FLEET.awsRoundTripMs,
    writeUnits: read.dynamo.writeUnits + alerts * perAlert((kind) => kind.dynamo.writeUnits),
    readUnits: read.dynamo.readUnits + alerts * perAlert((kind) => kind.dynamo.readUnits),
  };
}

/**
 * One account's polls a month in a mode: an account of `devices` of FLEET's devices (a stage's
 * fleet split over accounts: fewer events a poll, more empty polls). Not the timer queue's idle
 * long polls, which a stage's accounts share (sharedTimerQueue).
 */
export function accountPollCost(pollEverySeconds: number, profile: PollProfile, devices: number) {
  const prices = AWS_PRICES;
  const { memoryMb } = profile;
  const lines: ModeCostLine[] = [];
  const add = (item: string, quantity: number, usdEach: number) =>
    lines.push({ item, quantity: Math.round(quantity), usd: quantity * usdEach });

  const polls = (MINUTES_PER_MONTH * 60) / pollEverySeconds;
  const timerPolls = polls - MINUTES_PER_MONTH; // all but the watchdog's poll each minute
  const eventsPerPoll = ((devices * FLEET.eventsPerDevicePerDay) / 86_400) * pollEverySeconds;
  const withEventsShare = 1 - Math.exp(-eventsPerPoll);
  const pollsWithEvents = polls * withEventsShare;
  const pollsEmpty = polls - pollsWithEvents;
  const eventsPerPollWithEvents = eventsPerPoll / withEventsShare;
  const withEvents = fleetPoll(
    profile,
    eventsPerPollWithEvents,
    eventsPerPollWithEvents * FLEET.alertingShare,
  );
  const { empty } = profile;
  const emptyBilledMs = empty.milliseconds + empty.awsRequests * FLEET.awsRoundTripMs;

  add("Lambda invocations (one per poll)", polls, prices.lambda.request.usd);
  add(
    `Lambda GB-seconds at ${memoryMb} MB (arm64)`,
    ((pollsEmpty * emptyBilledMs + pollsWithEvents * withEvents.billedMs) / 1000) * (memoryMb / 1024),
    prices.lambda.armGbSecond.usd,
  );
  add(
    "EventBridge watchdog (one a minute)",
    MINUTES_PER_MONTH,
    prices.eventbridge.scheduledRuleInvocation.usd,
  );
  add("SQS timer messages (send, receive, delete)", timerPolls * 3, prices.sqs.request.usd);
  add(
    "DynamoDB write units, empty polls",
    pollsEmpty * empty.dynamo.writeUnits,
    prices.dynamodb.writeRequestUnit.usd,
  );
  add(
    "DynamoDB read units, empty polls",
    pollsEmpty * empty.dynamo.readUnits,
    prices.dynamodb.readRequestUnit.usd,
  );
  add(
    "DynamoDB write units, polls with events and their alerts",
    pollsWithEvents * withEvents.writeUnits,
    prices.dynamodb.writeRequestUnit.usd,
  );
  add(
    "DynamoDB read units, polls with events and their alerts",
    pollsWithEvents * withEvents.readUnits,
    prices.dynamodb.readRequestUnit.usd,
  );
  // A new container reads the account's rule states once (a warm one keeps them: the profile's
  // polls read none of the 4,000 it seeds). Assumed: a new container an hour.
  const statesReadUnits = Math.max(
    1,
    Math.ceil((devices * FLEET.rulesWithState * FLEET.stateItemBytes) / BILLING_UNITS.dynamoReadUnitBytes),
  );
  add(
    "DynamoDB read units, rule states per cold start (1 an hour)",
    HOURS_PER_MONTH * statesReadUnits,
    prices.dynamodb.readRequestUnit.usd,
  );
  return {
    polls,
    withEventsShare,
    billedMs: { empty: emptyBilledMs, withEvents: withEvents.billedMs },
    lines,
  };
}

/**
 * The timer queue's event source mapping long-polls whether or not a message waits (FLEET's
 * pollers, 20 s each): once per stage whatever its accounts, none in the 60 s mode (no chain).
 */
export function sharedTimerQueue(pollEverySeconds: number): ModeCostLine[] {
  if (pollEverySeconds >= 60) return [];
  const requests = LONG_POLLS_PER_MINUTE * MINUTES_PER_MONTH;
  return [
    {
      item: "SQS timer queue's idle long polls (per stage)",
      quantity: requests,
      usd: requests * AWS_PRICES.sqs.request.usd,
    },
  ];
}

/** A mode's price for a stage of one account holding FLEET. */
export function latencyModeCost(pollEverySeconds: number, profile: PollProfile): ModeCost {
  const account = accountPollCost(pollEverySeconds, profile, FLEET.devices);
  // Nothing on the timer queue in the 60 s mode: its lines would be zeros.
  const lines = [...account.lines, ...sharedTimerQueue(pollEverySeconds)].filter((line) => line.quantity > 0);
  return {
    memoryMb: profile.memoryMb,
    polls: Math.round(account.polls),
    pollsWithEventsShare: Math.round(account.withEventsShare * 1000) / 1000,
    billedMs: {
      empty: Math.round(account.billedMs.empty),
      withEvents: Math.round(account.billedMs.withEvents),
    },
    lines: lines.map((line) => ({ ...line, usd: round(line.usd) })),
    totalUsd: round(lines.reduce((total, line) => total + line.usd, 0)),
  };
}

const round = (usd: number) => Math.round(usd * 100) / 100;
