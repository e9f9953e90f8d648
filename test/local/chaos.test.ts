import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  type Message,
  type ReceiveMessageCommandInput,
  type ReceiveMessageCommandOutput,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { PollStep } from "@fleet-alerts/core/poller";
import { groupsFileSchema } from "@fleet-alerts/core/routing";
import { keys } from "@fleet-alerts/core/store";
import { describe, expect, it } from "vitest";
import type { Emulators, InboxMessage } from "../../packages/local/src/emulators.js";
import { startLocalPipeline } from "../../packages/local/src/pipeline.js";
import type { LocalLine } from "../../packages/local/src/report.js";
import { EVERYONE } from "../support/groups.js";

// The whole local pipeline (emulators, simulator, the real handlers) as a loaded machine and SQS
// would treat it: polls stalled past their lease at random steps, every queue message delivered
// twice with random delays. Every alert must reach a subscriber once: none lost, none twice.

const ACCOUNTS = ["north", "south"] as const;
const CHAOS_SECONDS = 40;
/** A poll's invocation (its Lambda time-out) and its lease's margin: a stall of 5 s outlives both. */
const INVOCATION_SECONDS = 4;
const LEASE_MARGIN_MS = 500;
const STALL_MS = { min: 7_000, max: 11_000 };
/**
 * The chance that a poll's step stalls: higher where a stall holds up a Publish (a chunk's records
 * written, not yet sent), the step that lets a poll taking the lease over meet it.
 */
const STALL_CHANCE = (step: PollStep) => (step === "alerts-recorded" ? 0.4 : 0.04);
/** The most a copy of a message is delayed behind it (SQS's delays are whole seconds). */
const COPY_DELAY_SECONDS = 10;

/** A seeded generator (mulberry32): the same run on every machine. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const COPY = "chaos-copy";

/**
 * SQS delivering every message of the work queues twice: each message received for the first time
 * is sent again, marked, delayed by 0 to COPY_DELAY_SECONDS; a copy is not copied again. Done on
 * the emulators' client that the local mode's deliveries receive with.
 */
function deliverEveryMessageTwice(emulators: Emulators, random: () => number, workQueues: readonly string[]) {
  const copies = { sent: 0 };
  emulators.clients.sqs.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== "ReceiveMessageCommand") return next(args);
      const input = args.input as ReceiveMessageCommandInput;
      if (!workQueues.includes(input.QueueUrl ?? "")) return next(args);
      input.MessageAttributeNames = [COPY];
      const result = await next(args);
      const received = (result.output as ReceiveMessageCommandOutput).Messages ?? [];
      await Promise.all(
        received
          .filter((message) => message.MessageAttributes?.[COPY] === undefined)
          .map(async (message: Message) => {
            copies.sent++;
            await emulators.clients.sqs.send(
              new SendMessageCommand({
                QueueUrl: input.QueueUrl,
                MessageBody: message.Body,
                DelaySeconds: Math.floor(random() * (COPY_DELAY_SECONDS + 1)),
                MessageAttributes: { [COPY]: { DataType: "String", StringValue: "1" } },
              }),
            );
          }),
      );
      return result;
    },
    { step: "initialize", name: "deliverEveryMessageTwice" },
  );
  return copies;
}

/** Every alert record of an account: its id, serial number, status and whether it went to anyone. */
async function alertRecords(emulators: Emulators, account: string) {
  const records: { alertId: string; serialno: bigint; status: string }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await emulators.clients.documents.send(
      new QueryCommand({
        TableName: emulators.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :alerts)",
        ExpressionAttributeValues: { ":pk": keys.account(account), ":alerts": "ALERT#" },
        ConsistentRead: true,
        ...(startKey && { ExclusiveStartKey: startKey }),
      }),
    );
    for (const item of page.Items ?? [])
      records.push({
        alertId: item.alertId as string,
        serialno: BigInt(item.serialno as string),
        status: item.status as string,
      });
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return records;
}

const cursorOf = async (emulators: Emulators, account: string) => {
  const { Items = [] } = await emulators.clients.documents.send(
    new QueryCommand({
      TableName: emulators.tableName,
      KeyConditionExpression: "pk = :pk AND sk = :cursor",
      ExpressionAttributeValues: { ":pk": keys.account(account), ":cursor": keys.cursor },
      ConsistentRead: true,
    }),
  );
  return BigInt((Items[0]?.serialno as string | undefined) ?? "0");
};

describe("the local pipeline under chaos", () => {
  it("sends every alert once while polls stall past their lease and SQS delivers every message twice", async () => {
    const random = seeded(41);
    const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-chaos-"));
    const rulesFile = join(folder, "rules.json");
    await writeFile(
      rulesFile,
      JSON.stringify({
        rules: [
          { id: "speed", events: [13], severity: "warning" },
          { id: "shock", events: [16], severity: "critical", escalate: { after: "5m", levels: 1 } },
          { id: "disk", events: [10, 11, 12], severity: "warning" },
          { id: "offline", events: [3], severity: "info", offlineForMinutes: 5 },
        ],
      }),
    );
    const chaos = { on: true, stalls: 0 };
    const lines: LocalLine[] = [];
    const pipeline = await startLocalPipeline(
      {
        accounts: ACCOUNTS,
        devices: 16,
        seed: 41,
        speed: 300,
        pollEverySeconds: 2,
        deployedSchedule: { pollEverySeconds: 2, timeoutSeconds: INVOCATION_SECONDS },
        pollSeams: {
          leaseMarginMs: LEASE_MARGIN_MS,
          checkpoint: async (step: PollStep) => {
            if (!chaos.on || random() >= STALL_CHANCE(step)) return;
            chaos.stalls++;
            await sleep(STALL_MS.min + random() * (STALL_MS.max - STALL_MS.min));
          },
        },
        evidenceDir: join(folder, "evidence"),
        fleetTimeZone: "UTC",
        rulesFile,
        groups: groupsFileSchema.parse(EVERYONE),
      },
      (line) => void lines.push(line),
    );
    const { emulators } = pipeline;
    const subscribers = {
      alerts: await emulators.subscribeQueue(),
      escalations: await emulators.subscribeQueue(undefined, emulators.escalationTopicArn),
    };
    const { queues } = emulators;
    const copies = deliverEveryMessageTwice(emulators, random, [
      queues.pollTimer,
      queues.confirm,
      queues.escalation,
      queues.evidence,
      queues.webhook,
    ]);
    const heard: InboxMessage[] = [];
    const escalated: InboxMessage[] = [];
    const listen = async () => {
      heard.push(...(await subscribers.alerts.read({ waitMs: 1_000 })));
      escalated.push(...(await subscribers.escalations.read({ waitMs: 0 })));
    };
    let newest: Record<string, bigint> = {};
    let records: Awaited<ReturnType<typeof alertRecords>>[] = [];
    try {
      const chaosEndsMs = Date.now() + CHAOS_SECONDS * 1000;
      while (Date.now() < chaosEndsMs) await listen();
      chaos.on = false;
      // From here on the polls run as they should: each account catches up past what was logged
      // when the chaos stopped, and what is under way settles.
      newest = Object.fromEntries(
        [...pipeline.simulators].map(([account, simulator]) => [
          account,
          simulator.control.events().at(-1)?.serialno ?? 0n,
        ]),
      );
      const settleEndsMs = Date.now() + 60_000;
      for (;;) {
        await listen();
        const cursors = await Promise.all(ACCOUNTS.map((account) => cursorOf(emulators, account)));
        if (ACCOUNTS.every((account, index) => (cursors[index] ?? 0n) >= (newest[account] ?? 0n))) break;
        if (Date.now() > settleEndsMs) throw new Error("the accounts did not catch up after the chaos");
      }
      for (let second = 0; second < 8; second++) await listen();
      records = await Promise.all(ACCOUNTS.map((account) => alertRecords(emulators, account)));
    } finally {
      await pipeline.stop();
    }
    const sent = heard
      .filter((message) => message.attributes.kind?.value === "alert")
      .map((message) => `${message.attributes.alert_id?.value} to ${message.attributes.to?.value}`);
    const twice = sent.filter((key, index) => sent.indexOf(key) !== index);
    expect(twice).toEqual([]);
    const levels = escalated.map(
      (message) => `${message.attributes.alert_id?.value} level ${message.attributes.level?.value}`,
    );
    expect(levels.filter((key, index) => levels.indexOf(key) !== index)).toEqual([]);

    // What the chaos did: polls stalled past their lease and fenced, every message copied.
    expect(chaos.stalls).toBeGreaterThan(5);
    expect(lines.filter((line) => line.type === "poll-fenced").length).toBeGreaterThan(0);
    expect(copies.sent).toBeGreaterThan(100);

    // None lost: every alert decided for an event logged before the chaos stopped went out.
    const owed = ACCOUNTS.flatMap((account, index) =>
      (records[index] ?? []).filter((record) => record.serialno <= (newest[account] ?? 0n)),
    );
    expect(owed.filter((record) => record.status === "pending")).toEqual([]);
    const published = owed.filter((record) => record.status === "published").map((record) => record.alertId);
    const heardIds = new Set(sent.map((key) => key.split(" to ")[0]));
    expect(published.filter((alertId) => !heardIds.has(alertId))).toEqual([]);
    expect(published.length).toBeGreaterThanOrEqual(200);
  }, 240_000);
});
