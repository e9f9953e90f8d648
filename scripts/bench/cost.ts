/**
 * The monthly AWS bill of one production stage for a fleet, from what `npm run bench` measured (the
 * poller's time per event and per idle run, its requests per alert, the evidence worker's
 * throughput), the stack's own settings (memory sizes, alarms, dashboard) and the public prices in
 * aws-prices.ts. What is assumed rather than measured is in FLEET and says so.
 */
import { AWS_PRICES, PRICES_READ_ON, REGION } from "./aws-prices.js";
import type { BacklogFigures } from "./backlog.js";
import type { EvidenceFigures } from "./evidence.js";
import type { SynthesizedHandlers } from "./handlers.js";

/** Assumptions about the fleet and the network: stated, not measured. */
export const FLEET = {
  devices: 1_000,
  /** Alarms, ignition and status changes an MDVR reports in a working day. */
  eventsPerDevicePerDay: 200,
  /** Events that raise an alert under the configured rules. */
  alertingShare: 0.02,
  /** Alerts whose rule asks for video (GSensor-like): two channels, a minute, 512 kbit/s each. */
  evidenceShare: 0.1,
  clip: { channels: 2, seconds: 60, bitrateBitsPerSecond: 512_000 },
  /** Offline confirmations scheduled (a device going quiet) per device and day. */
  offlineChecksPerDevicePerDay: 2,
  emailSubscribers: 2,
  /** Alerts that also go out by SMS (critical ones), to one number. */
  smsShare: 0.1,
  /**
   * One poll a minute (scheduleMinutes 1, no POLL_EVERY_SECONDS; a stage's default). What the
   * faster modes, the production stage's among them, cost per account: latency-cost.ts.
   */
  pollsPerHour: 60,
  /** Waits Lambda bills that the loopback emulators hide: per AWS request and per device-cloud call. */
  awsRoundTripMs: 10,
  deviceCloudRoundTripMs: 250,
  /** An alert record as stored (rendered message included) and a rule state. */
  alertItemBytes: 2_500,
  stateItemBytes: 150,
  /** Rules that keep a state per device (the default rules). */
  rulesWithState: 4,
  logBytesPerPoll: 500,
  logBytesPerAlert: 700,
  /** The poll metrics the poller emits (observability.ts), one custom metric each. */
  customMetrics: 15,
  /** Lambda polls an SQS event source with five long polls at a time, 20 s each, even when idle. */
  sqsPollersPerQueue: 5,
} as const;

const HOURS_PER_MONTH = 730;
const CHUNK_EVENTS = 100;
const UPLOAD_PART_BYTES = 5 * 2 ** 20;

export interface CostLine {
  service: "Lambda" | "DynamoDB" | "SNS" | "SQS" | "S3" | "SMS" | "Storage" | "CloudWatch";
  item: string;
  quantity: number;
  usd: number;
}

export interface MonthlyCost {
  region: string;
  pricesReadOn: string;
  fleet: typeof FLEET;
  volumes: { events: number; alerts: number; evidenceJobs: number; polls: number };
  lines: CostLine[];
  /** Lambda, DynamoDB, SNS (email), SQS and S3 requests: what the target is about. */
  pipelineUsd: number;
  smsUsd: number;
  storageUsd: number;
  cloudWatchUsd: number;
}

export function monthlyCost(
  backlog: BacklogFigures,
  evidence: EvidenceFigures,
  stack: Pick<SynthesizedHandlers, "memoryMb" | "resourceCounts">,
): MonthlyCost {
  const prices = AWS_PRICES;
  const polls = FLEET.pollsPerHour * HOURS_PER_MONTH;
  const events = (FLEET.devices * FLEET.eventsPerDevicePerDay * HOURS_PER_MONTH) / 24;
  const alerts = events * FLEET.alertingShare;
  const jobs = alerts * FLEET.evidenceShare;
  const offlineChecks = (FLEET.devices * FLEET.offlineChecksPerDevicePerDay * HOURS_PER_MONTH) / 24;
  const chunks = polls * Math.ceil(events / polls / CHUNK_EVENTS);
  const alertsPerChunk = alerts / chunks;
  const lines: CostLine[] = [];
  const add = (service: CostLine["service"], item: string, quantity: number, usdEach: number) =>
    lines.push({ service, item, quantity: Math.round(quantity), usd: quantity * usdEach });

  // ---- Lambda: measured time on this machine, plus the network waits the emulators hide ----
  const idleRequests = sum(backlog.idlePoll.requests);
  const msPerEvent = (backlog.pipelineSeconds * 1000) / backlog.events;
  const pollMs =
    backlog.idlePoll.milliseconds +
    (events / polls) * msPerEvent +
    (idleRequests + 3 * (chunks / polls)) * FLEET.awsRoundTripMs +
    // The event query and the device list, then per chunk with alerts one round of /api/gps
    // lookups (eight devices at a time; a chunk here has about alertsPerChunk alerts).
    (2 + (chunks / polls) * Math.ceil(Math.min(alertsPerChunk, CHUNK_EVENTS) / 8)) *
      FLEET.deviceCloudRoundTripMs;
  const clipBytes = (FLEET.clip.channels * FLEET.clip.seconds * FLEET.clip.bitrateBitsPerSecond) / 8;
  const evidenceMs =
    (clipBytes / (evidence.storedBytes / evidence.workerSeconds)) * 1000 +
    (12 * FLEET.awsRoundTripMs + 4 * FLEET.deviceCloudRoundTripMs);
  const confirmMs = 50 + 4 * FLEET.awsRoundTripMs;
  const gbSeconds =
    (polls * pollMs * stack.memoryMb.poll +
      jobs * evidenceMs * stack.memoryMb.evidence +
      offlineChecks * confirmMs * stack.memoryMb.confirm) /
    1024 /
    1000;
  add("Lambda", "invocations", polls + jobs + offlineChecks, prices.lambda.request.usd);
  add("Lambda", "GB-seconds (arm64)", gbSeconds, prices.lambda.armGbSecond.usd);

  // ---- DynamoDB: request units of the requests the backlog run counted ----
  const alertWru = Math.ceil(FLEET.alertItemBytes / 1024);
  const statesRru = Math.ceil((FLEET.devices * FLEET.rulesWithState * FLEET.stateItemBytes) / 4096);
  const writeUnits =
    polls * 2 + // the lease, taken and released
    chunks * 2 + // cursor advanced, lease renewed
    chunks * Math.min(1, alertsPerChunk) * 3 + // publication item: opened, published, handed on
    alerts * alertWru + // the alert record, written once (batched; units are per item all the same)
    alerts + // rule states, one small item per alert's rule and device
    jobs * 2 * alertWru + // evidence stored, announced
    offlineChecks * 3;
  // Rule states: read by a cold container only (TickCarry); assumed one an hour.
  const readUnits =
    polls * 1 +
    HOURS_PER_MONTH * statesRru +
    chunks * Math.max(1, Math.ceil((alertsPerChunk * FLEET.alertItemBytes) / 4096)) +
    offlineChecks * 2;
  add("DynamoDB", "write request units", writeUnits, prices.dynamodb.writeRequestUnit.usd);
  add("DynamoDB", "read request units", readUnits, prices.dynamodb.readRequestUnit.usd);

  // ---- SNS: PublishBatch per chunk with alerts; emails per subscriber ----
  const alertBatches = chunks * Math.min(1, alertsPerChunk) * Math.ceil(Math.max(alertsPerChunk, 1) / 10);
  add(
    "SNS",
    "publish requests (alerts, evidence notices)",
    alertBatches + jobs,
    prices.sns.publishRequest.usd,
  );
  add(
    "SNS",
    "email notifications",
    (alerts + jobs) * FLEET.emailSubscribers,
    prices.sns.emailNotification.usd,
  );

  // ---- SQS: jobs sent, received and deleted, and the event sources' long polls ----
  const emptyPolls = 2 * FLEET.sqsPollersPerQueue * 3 * 60 * HOURS_PER_MONTH;
  add("SQS", "requests (jobs and checks)", (jobs + offlineChecks) * 3, prices.sqs.request.usd);
  add("SQS", "long polls of two event sources", emptyPolls, prices.sqs.request.usd);

  // ---- S3: per channel a multipart upload, copy and delete; per job the manifest ----
  const partsPerClip = Math.max(1, Math.ceil(clipBytes / FLEET.clip.channels / UPLOAD_PART_BYTES));
  const putRequests = jobs * (FLEET.clip.channels * (3 + partsPerClip) + 1);
  const getRequests = jobs * (FLEET.clip.channels + 1);
  add("S3", "PUT, COPY, POST requests", putRequests, prices.s3.putCopyPostListRequest.usd);
  add("S3", "GET, HEAD requests", getRequests, prices.s3.getRequest.usd);

  // ---- apart from the target: SMS, storage, CloudWatch ----
  add(
    "SMS",
    "US message parts",
    alerts * FLEET.smsShare,
    prices.sns.smsUsBase.usd + prices.sns.smsUsCarrierFee.usd,
  );
  const evidenceGb = (jobs * clipBytes) / 1e9;
  add(
    "Storage",
    "S3 Standard GB-month (one month of evidence)",
    evidenceGb,
    prices.s3.standardStorageGbMonth.usd,
  );
  const tableGb = (alerts * FLEET.alertItemBytes) / 1e9;
  add(
    "Storage",
    "DynamoDB GB-month (one month of alert records)",
    tableGb,
    prices.dynamodb.storageGbMonth.usd,
  );
  const logGb = (polls * FLEET.logBytesPerPoll + alerts * FLEET.logBytesPerAlert + jobs * 1_000) / 1e9;
  add("CloudWatch", "log ingestion GB", logGb, prices.cloudwatch.logsIngestionGb.usd);
  add(
    "CloudWatch",
    "alarms",
    stack.resourceCounts["AWS::CloudWatch::Alarm"] ?? 0,
    prices.cloudwatch.standardAlarmMonth.usd,
  );
  add(
    "CloudWatch",
    "dashboards",
    stack.resourceCounts["AWS::CloudWatch::Dashboard"] ?? 0,
    prices.cloudwatch.dashboardMonth.usd,
  );
  add("CloudWatch", "custom metrics", FLEET.customMetrics, prices.cloudwatch.customMetricMonth.usd);

  const total = (services: CostLine["service"][]) =>
    round(lines.filter((line) => services.includes(line.service)).reduce((usd, line) => usd + line.usd, 0));
  return {
    region: REGION,
    pricesReadOn: PRICES_READ_ON,
    fleet: FLEET,
    volumes: {
      events: Math.round(events),
      alerts: Math.round(alerts),
      evidenceJobs: Math.round(jobs),
      polls,
    },
    lines: lines.map((line) => ({ ...line, usd: round(line.usd) })),
    pipelineUsd: total(["Lambda", "DynamoDB", "SNS", "SQS", "S3"]),
    smsUsd: total(["SMS"]),
    storageUsd: total(["Storage"]),
    cloudWatchUsd: total(["CloudWatch"]),
  };
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((total, count) => total + count, 0);
}

const round = (usd: number) => Math.round(usd * 100) / 100;
