/**
 * What one poll of an account costs, measured on the real poll handler: its DynamoDB capacity and
 * AWS requests (through dynamo-meter.ts and the emulators' request counts) and its billed time at
 * the poller's CPU share (cpu-share.ts) with the device cloud's round trips, for the three kinds of
 * poll a latency mode's price is made of: one that finds nothing, one that reads events none of
 * which alert, and one whose events alert (what each alert adds). The latency modes price a
 * fleet's month from these, as the backlog run's idle poll priced it before.
 */
import { writeFile } from "node:fs/promises";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { LeaseGuard } from "@fleet-alerts/core/cursor";
import { CHAIN_MS, type PollTimer, RULE_STATE_FIELDS, RuleStateStore } from "@fleet-alerts/core/poller";
import { keys } from "@fleet-alerts/core/store";
import { createPollHandler } from "@fleet-alerts/functions/poll";
import { type Emulators, startEmulators } from "../../packages/local/src/emulators.js";
import { FLEET } from "./cost.js";
import { cpuShareOf } from "./cpu-share.js";
import { type DynamoUsage, meterDynamo, usageBetween } from "./dynamo-meter.js";
import { forkedFigures } from "./forked-figures.js";
import { forkSimulator } from "./remote-simulator.js";

export interface PollKind {
  /** Polls measured; below, per poll, the median time and the mean requests and capacity. */
  polls: number;
  eventsRead: number;
  alerts: number;
  /** Wall time of the invocation at the CPU share, device-cloud round trips included (loopback AWS). */
  milliseconds: number;
  /** Of which the CPU the poll used (at this machine's speed). */
  cpuMs: number;
  dynamo: DynamoUsage;
  /** Every AWS request (DynamoDB, SNS, SQS): each pays a round trip the loopback hides. */
  awsRequests: number;
}

export interface PollProfile {
  memoryMb: number;
  deviceCloudRoundTripMs: number;
  empty: PollKind;
  /** Events read, none alerting: the fleet's usual poll (2% of its events alert). */
  events: PollKind;
  /** The same with an hour's events of the simulated fleet: what each more event read adds. */
  manyEvents: PollKind;
  /** Events read, one of them alerting (a fleet's alerts are sparse: under three a poll a minute). */
  alerting: PollKind;
}

const RULE = { id: "bench-profile", events: [200], severity: "info", cooldownSeconds: 60 };
const POLLS_EACH = 8;
const PROFILED_ACCOUNT = "profile";
/** The chain's interval: production's mode (what a poll does and writes is the same in every mode). */
const CHAIN_EVERY_SECONDS = 5;

/** The measurement in a process of its own (poll-profile-process.ts), as the bench takes it. */
export function forkPollProfile(memoryMb: number, deviceCloudRoundTripMs: number): Promise<PollProfile> {
  return forkedFigures("./poll-profile-process.ts", { memoryMb, deviceCloudRoundTripMs });
}

export async function measurePollProfile(
  memoryMb: number,
  deviceCloudRoundTripMs: number,
): Promise<PollProfile> {
  // The services in a process of their own: in AWS their work and their garbage are never the
  // poller's, and a collection of their heap in a poll's callback would be charged to the poll.
  const emulators = await startEmulators({ subscribeInbox: false, separateProcess: true });
  const meter = await meterDynamo(emulators.endpoints.dynamodb);
  // So is the device cloud. Its clock moves only when told: an empty poll finds nothing, and the
  // other polls read what was made.
  const simulator = await forkSimulator({ seed: 11, devices: 20, historyHours: 1 });
  await simulator.addLatency(deviceCloudRoundTripMs);
  const share = cpuShareOf(memoryMb);
  try {
    const rulesFile = `${process.cwd()}/.build/bench-profile-rules.json`;
    await writeFile(rulesFile, JSON.stringify({ rules: [RULE] }));
    const env = {
      ...emulators.env(),
      AWS_ENDPOINT_URL_DYNAMODB: meter.endpoint,
      DEVICE_CLOUD_ACCOUNTS: JSON.stringify([
        { id: PROFILED_ACCOUNT, baseUrl: simulator.url, username: "demo", rulesFile },
      ]),
      DEVICE_CLOUD_PASSWORD: "demo",
    };
    const quiet = { logger: { info: () => undefined, warn: () => undefined, error: () => undefined } };
    const context = { getRemainingTimeInMillis: () => 60_000 };
    // The first poll, a watchdog's without a chain, sets the cursor and releases the lease; every
    // measured poll is then a timer of one chain, as a stage's polls below 60 s are: it takes the
    // lease over from the poll before it and hands it on (two writes with events, not three), and
    // sends the next timer (its SendMessage counted). The chain ends long after the profile.
    const plainPoll = createPollHandler(env, quiet);
    let handedOverBy: string | undefined;
    const chainPoll = createPollHandler({ ...env, POLL_EVERY_SECONDS: String(CHAIN_EVERY_SECONDS) }, quiet);
    const chainUntilMs = Date.now() + 10 * CHAIN_MS;
    const poll = async () => {
      const timer: PollTimer = {
        kind: "poll-timer",
        account: PROFILED_ACCOUNT,
        plannedMs: Date.now(),
        untilMs: chainUntilMs,
        failures: 0,
        // The token the poll before left the lease under, as its next timer carries it.
        ...(handedOverBy !== undefined && { lease: handedOverBy }),
      };
      const summaries = await chainPoll(
        { Records: [{ messageId: `timer-${timer.plannedMs}`, body: JSON.stringify(timer) }] },
        context,
      );
      handedOverBy = await leaseToken(emulators);
      return summaries;
    };
    const measure = async (prepare: () => Promise<unknown>): Promise<PollKind> => {
      const runs = [];
      for (let index = 0; index < POLLS_EACH; index++) {
        await prepare();
        const [usage, requests, cpu] = [meter.usage(), await emulators.requestCounts(), share.figures()];
        const started = performance.now();
        const summaries = await share.run(poll);
        runs.push({
          milliseconds: performance.now() - started,
          cpuMs: share.figures().cpuMs - cpu.cpuMs,
          dynamo: usageBetween(usage, meter.usage()),
          // The emulators count every request, the metered DynamoDB ones too.
          awsRequests: count(await emulators.requestCounts()) - count(requests),
          eventsRead: summaries.reduce((total, summary) => total + summary.eventsRead, 0),
          alerts: summaries.reduce((total, summary) => total + summary.alertsPublished, 0),
        });
      }
      const mean = (values: number[]) => values.reduce((total, value) => total + value, 0) / values.length;
      // Times by their median (a collection of the heap now and then lands in one poll), requests
      // and capacity by their mean.
      const median = (values: number[]) =>
        [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      const dynamo = {
        requests: meanRequests(runs.map((run) => run.dynamo.requests)),
        writeUnits: mean(runs.map((run) => run.dynamo.writeUnits)),
        readUnits: mean(runs.map((run) => run.dynamo.readUnits)),
      };
      return {
        polls: runs.length,
        eventsRead: mean(runs.map((run) => run.eventsRead)),
        alerts: mean(runs.map((run) => run.alerts)),
        milliseconds: Math.round(median(runs.map((run) => run.milliseconds))),
        cpuMs: Math.round(median(runs.map((run) => run.cpuMs))),
        dynamo,
        awsRequests: mean(runs.map((run) => run.awsRequests)),
      };
    };
    await seedFleetStates(emulators);
    await share.run(() => plainPoll({}, context)); // sets the cursor at the newest event
    // Five simulated minutes of a 20-device fleet: about sixteen events, none of them the rule's code.
    const events = () => simulator.advance(300_000);
    // Warms the process up, not counted; its first poll with events reads the rule states, which
    // a warm container then keeps (the price counts a cold start's read apart).
    await measure(events);
    let alerted = 0;
    const alerting = async () => {
      await events();
      // Each on another device: its cooldown state is new, as a fleet's alerts mostly are.
      await simulator.inject(RULE.events[0] as number, alerted++);
    };
    return {
      memoryMb,
      deviceCloudRoundTripMs,
      empty: await measure(async () => undefined),
      events: await measure(events),
      manyEvents: await measure(() => simulator.advance(3_600_000)),
      alerting: await measure(alerting),
    };
  } finally {
    share.stop();
    await simulator.close();
    await meter.close();
    await emulators.close();
  }
}

/**
 * The rule states of FLEET's devices, as a fleet's account holds them: whatever a poll reads of
 * them is then billed at a fleet's size, not the simulator's 20 devices'.
 */
async function seedFleetStates(emulators: Emulators): Promise<void> {
  const store = new RuleStateStore({
    documents: emulators.clients.documents,
    tableName: emulators.tableName,
  });
  const ruleIds = Array.from({ length: FLEET.rulesWithState }, (_, index) => `fleet-rule-${index + 1}`);
  const changes = Array.from({ length: FLEET.devices }, (_, index) => `fleet-device-${index + 1}`).flatMap(
    (deviceid) =>
      ruleIds.map((ruleId) => ({
        deviceid,
        ruleId,
        state: {
          seenSerialno: 1_000_000n,
          lastAlertSerialno: 1_000_000n,
          lastAlertEventMs: 0,
          suppressed: 0,
        },
        fields: RULE_STATE_FIELDS,
      })),
  );
  // Seeded as by a poll whose lease has no end: the profiled polls take later epochs.
  await store.saveAll(
    PROFILED_ACCOUNT,
    changes,
    new LeaseGuard(PROFILED_ACCOUNT, 0, Number.POSITIVE_INFINITY, Date.now),
  );
}

/** The token the profiled account's lease is held under (a poll of the chain handed it on), if held. */
async function leaseToken(emulators: Emulators): Promise<string | undefined> {
  const { Item } = await emulators.clients.documents.send(
    new GetCommand({
      TableName: emulators.tableName,
      Key: { pk: keys.account(PROFILED_ACCOUNT), sk: keys.lock },
      ConsistentRead: true,
    }),
  );
  return typeof Item?.owner === "string" && typeof Item.expiresAtMs === "number" ? Item.owner : undefined;
}

const count = (requests: Record<string, number>) =>
  Object.values(requests).reduce((total, requestCount) => total + requestCount, 0);

function meanRequests(runs: Array<Record<string, number>>): Record<string, number> {
  const operations = new Set(runs.flatMap((run) => Object.keys(run)));
  return Object.fromEntries(
    [...operations].map((operation) => [
      operation,
      runs.reduce((total, run) => total + (run[operation] ?? 0), 0) / runs.length,
    ]),
  );
}
