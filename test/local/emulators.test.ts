/**
 * What the rest of the project relies on from the emulators, proven over the real SDK v3 clients.
 * One emulator pair serves the whole file; each test uses its own keys or drains the queues it reads.
 */

import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ConditionalCheckFailedException, DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { PublishBatchCommand, PublishCommand, SNSClient } from "@aws-sdk/client-sns";
import {
  DeleteMessageCommand,
  PurgeQueueCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { fc, test } from "@fast-check/vitest";
import { EVIDENCE_MAX_RECEIVES } from "@fleet-alerts/core/evidence";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type Emulators, startEmulators } from "../support/emulators.js";
import { sqsRefusal } from "../support/fakes/queue.js";

const execFileAsync = promisify(execFile);
let emulators: Emulators;

beforeAll(async () => {
  emulators = await startEmulators();
});
afterAll(async () => {
  await emulators.close();
});
beforeEach(async () => {
  await emulators.readInbox(); // drain what earlier tests published
});

describe("DynamoDB (dynalite)", () => {
  const put = (pk: string, sk: string) =>
    emulators.clients.documents.send(
      new PutCommand({
        TableName: emulators.tableName,
        Item: { pk, sk, state: "pending" },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );

  it("a conditional put succeeds once and then fails with ConditionalCheckFailedException", async () => {
    await put("ACCOUNT#put", "ALERT#1#r1");
    await expect(put("ACCOUNT#put", "ALERT#1#r1")).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  });

  it("lets exactly one of 10 concurrent conditional puts of the same key succeed", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => put("ACCOUNT#race", "ALERT#1#r1")),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const failures: unknown[] = results.flatMap((result) =>
      result.status === "rejected" ? [result.reason] : [],
    );
    expect(failures).toHaveLength(9);
    for (const failure of failures) expect(failure).toBeInstanceOf(ConditionalCheckFailedException);
  });

  it("a conditional update is a compare-and-swap", async () => {
    const key = { pk: "ACCOUNT#cas", sk: "CURSOR" };
    await emulators.clients.documents.send(
      new PutCommand({ TableName: emulators.tableName, Item: { ...key, v: "100" } }),
    );
    const swap = (expected: string, next: string) =>
      emulators.clients.documents.send(
        new UpdateCommand({
          TableName: emulators.tableName,
          Key: key,
          UpdateExpression: "SET #v = :new",
          ConditionExpression: "#v = :expected",
          ExpressionAttributeNames: { "#v": "v" },
          ExpressionAttributeValues: { ":new": next, ":expected": expected },
        }),
      );

    await swap("100", "200");
    await expect(swap("100", "300")).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    const { Item } = await emulators.clients.documents.send(
      new GetCommand({ TableName: emulators.tableName, Key: key, ConsistentRead: true }),
    );
    expect(Item?.v).toBe("200");
  });

  it("queries a partition with begins_with on the sort key, in sort-key order", async () => {
    const items = [
      { pk: "ACCOUNT#q", sk: "ALERT#0000002#r1" },
      { pk: "ACCOUNT#q", sk: "CURSOR" },
      { pk: "ACCOUNT#q", sk: "ALERT#0000001#r2" },
      { pk: "ACCOUNT#q", sk: "REJECTED#0000003" },
      { pk: "ACCOUNT#other", sk: "ALERT#0000001#r1" },
    ];
    for (const Item of items) {
      await emulators.clients.documents.send(new PutCommand({ TableName: emulators.tableName, Item }));
    }
    const { Items = [] } = await emulators.clients.documents.send(
      new QueryCommand({
        TableName: emulators.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": "ACCOUNT#q", ":prefix": "ALERT#" },
      }),
    );
    expect(Items.map((item) => item.sk)).toEqual(["ALERT#0000001#r2", "ALERT#0000002#r1"]);
  });
});

describe("SNS to SQS (fauxqs)", () => {
  const structured = (i: number) => ({
    default: `alert ${i}`,
    email: `Alert ${i}\n\nDetails for the email`,
    sms: `ALERT ${i}`,
  });

  it("delivers a PublishBatch of 10 MessageStructure json entries with their attributes to the inbox", async () => {
    const { Successful = [], Failed = [] } = await emulators.clients.sns.send(
      new PublishBatchCommand({
        TopicArn: emulators.topicArn,
        PublishBatchRequestEntries: Array.from({ length: 10 }, (_, i) => ({
          Id: `e${i}`,
          Subject: `Alert ${i}`,
          MessageStructure: "json",
          Message: JSON.stringify(structured(i)),
          MessageAttributes: {
            severity: { DataType: "String", StringValue: i % 2 === 0 ? "critical" : "warning" },
            serialno: { DataType: "Number", StringValue: String(1000 + i) },
          },
        })),
      }),
    );
    expect(Failed).toEqual([]);
    expect(Successful).toHaveLength(10);

    const inbox = await emulators.readInbox({ atLeast: 10 });
    expect(inbox).toHaveLength(10);
    const byId = new Map(inbox.map((message) => [message.messageId, message]));
    for (const entry of Successful) {
      const i = Number(entry.Id?.slice(1));
      expect(byId.get(entry.MessageId ?? "")).toEqual({
        messageId: entry.MessageId,
        subject: `Alert ${i}`,
        raw: JSON.stringify(structured(i)),
        bodies: structured(i),
        attributes: {
          severity: { type: "String", value: i % 2 === 0 ? "critical" : "warning" },
          serialno: { type: "Number", value: String(1000 + i) },
        },
      });
    }
  });

  it("delivers the SNS envelope verbatim: MessageStructure json not expanded, attributes only inside it", async () => {
    // Pins down what fauxqs 1.9.2 sends, so that readInbox's parsing stays honest. On AWS the
    // Message would be the "sqs" or "default" body, not the whole JSON document.
    const queue = await emulators.subscribeQueue();
    const message = JSON.stringify(structured(1));
    const { MessageId } = await emulators.clients.sns.send(
      new PublishCommand({
        TopicArn: emulators.topicArn,
        MessageStructure: "json",
        Message: message,
        MessageAttributes: { severity: { DataType: "String", StringValue: "critical" } },
      }),
    );
    const { Messages = [] } = await emulators.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queue.url, WaitTimeSeconds: 1, MessageAttributeNames: ["All"] }),
    );
    expect(Messages).toHaveLength(1);
    const [delivered] = Messages;
    expect(delivered?.MessageAttributes).toBeUndefined(); // no SQS attributes without raw delivery
    const envelope: unknown = JSON.parse(delivered?.Body ?? "");
    expect(envelope).toEqual({
      Type: "Notification",
      MessageId,
      TopicArn: emulators.topicArn,
      Subject: null,
      Message: message,
      Timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      SignatureVersion: "1",
      Signature: "EXAMPLE",
      SigningCertURL: expect.any(String),
      UnsubscribeURL: expect.stringContaining("Action=Unsubscribe&SubscriptionArn="),
      MessageAttributes: { severity: { Type: "String", Value: "critical" } },
    });
  });

  it("a filter policy on severity lets only matching messages through", async () => {
    const critical = await emulators.subscribeQueue({ severity: ["critical"] });
    const publish = (severity?: string) =>
      emulators.clients.sns.send(
        new PublishCommand({
          TopicArn: emulators.topicArn,
          Message: `severity ${severity ?? "none"}`,
          ...(severity && { MessageAttributes: { severity: { DataType: "String", StringValue: severity } } }),
        }),
      );
    for (const severity of ["critical", "warning", undefined, "critical", "info"]) await publish(severity);

    // The unfiltered inbox got all five, so fan-out is over; the filtered queue must hold exactly two.
    expect(await emulators.readInbox({ atLeast: 5 })).toHaveLength(5);
    const received = await critical.read({ atLeast: 2 });
    expect(received.map((message) => message.raw)).toEqual(["severity critical", "severity critical"]);
  });
});

describe("SQS (fauxqs), as strict as SQS about characters", () => {
  // fauxqs 1.9.2 refused every character beyond the Basic Multilingual Plane (an emoji), which SQS
  // takes; the local mode gives it SQS's set (packages/local/src/fauxqs-parity.ts). The oracle is the
  // strict fake's reading of SQS's documentation.
  const sends = async (MessageBody: string) => {
    const QueueUrl = emulators.queues.webhookDlq;
    const single = await emulators.clients.sqs.send(new SendMessageCommand({ QueueUrl, MessageBody })).then(
      () => "accepted",
      (error: Error) => error.name,
    );
    const { Failed = [] } = await emulators.clients.sqs.send(
      new SendMessageBatchCommand({ QueueUrl, Entries: [{ Id: "a", MessageBody }] }),
    );
    return { single, batch: Failed[0] ? `${Failed[0].Code}/${Failed[0].SenderFault}` : "accepted" };
  };
  afterAll(() =>
    emulators.clients.sqs.send(new PurgeQueueCommand({ QueueUrl: emulators.queues.webhookDlq })),
  );

  it.each([
    ["an emoji", "🚚 Grace 👩‍✈️", true],
    ["the last code point", "\u{10FFFF}", true],
    ["tab, line feed and carriage return", "a\tb\nc\rd", true],
    ["U+FFFF", "Ada\uFFFFLovelace", false],
    ["U+FFFE", "\uFFFE", false],
    ["NUL", "a\u0000b", false],
    ["a lone surrogate", "a\uD800b", false],
  ])("%s", async (_what, body, accepted) => {
    expect(await sends(body)).toEqual(
      accepted
        ? { single: "accepted", batch: "accepted" }
        : { single: "AWS.SimpleQueueService.InvalidMessageContents", batch: "InvalidMessageContents/true" },
    );
  });

  test.prop([fc.string({ unit: "binary", maxLength: 40 })], { numRuns: 200 })(
    "accepts exactly what SQS's documented set allows, one message or in a batch",
    async (body) => {
      fc.pre(body.length > 0);
      const accepted = sqsRefusal(body) === undefined;
      const { single, batch } = await sends(body);
      expect(single === "accepted").toBe(accepted);
      expect(batch === "accepted").toBe(accepted);
    },
  );
});

describe("SQS (fauxqs)", () => {
  it("does not deliver a message sent with DelaySeconds 2 at once, and does after about 2 s", async () => {
    // Functional check of the delay, not a timing measurement: the margins are generous on purpose.
    const { sqs } = emulators.clients;
    const QueueUrl = emulators.queues.confirm;
    const sentAt = Date.now();
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "confirm offline", DelaySeconds: 2 }));

    const early = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 0 }));
    expect(early.Messages).toBeUndefined();

    const late = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 5 }));
    expect(late.Messages?.map((message) => message.Body)).toEqual(["confirm offline"]);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1_500);
    await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: late.Messages?.[0]?.ReceiptHandle }));
  });

  it("moves an evidence job to the DLQ after maxReceiveCount (EVIDENCE_MAX_RECEIVES) receives", async () => {
    const { sqs } = emulators.clients;
    const { evidence, evidenceDlq } = emulators.queues;
    await sqs.send(new SendMessageCommand({ QueueUrl: evidence, MessageBody: "job-1" }));
    const receive = async () =>
      (await sqs.send(new ReceiveMessageCommand({ QueueUrl: evidence, VisibilityTimeout: 0 }))).Messages ??
      [];

    for (let attempt = 1; attempt <= EVIDENCE_MAX_RECEIVES; attempt++) {
      expect((await receive()).map((message) => message.Body)).toEqual(["job-1"]);
    }
    expect(await receive()).toEqual([]); // the next receive moves it instead

    const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: evidenceDlq, WaitTimeSeconds: 1 }));
    expect(dead.Messages?.map((message) => message.Body)).toEqual(["job-1"]);
  });
});

describe("env()", () => {
  it("gives a client built from the environment alone the emulators (service-specific endpoint variables)", async () => {
    const env = emulators.env();
    expect(Object.values(env).every((value) => !value.includes("amazonaws.com"))).toBe(true);
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    const warn = vi.spyOn(console, "warn");
    const dynamodb = new DynamoDBClient({});
    const sqs = new SQSClient({});
    const sns = new SNSClient({});
    try {
      const { TableNames } = await dynamodb.send(new ListTablesCommand({}));
      expect(TableNames).toEqual([env.TABLE_NAME]);

      await sqs.send(new SendMessageCommand({ QueueUrl: env.EVIDENCE_QUEUE_URL, MessageBody: "from env" }));
      const { Messages } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: env.EVIDENCE_QUEUE_URL, WaitTimeSeconds: 1 }),
      );
      expect(Messages?.map((message) => message.Body)).toEqual(["from env"]);
      await sqs.send(
        new DeleteMessageCommand({
          QueueUrl: env.EVIDENCE_QUEUE_URL,
          ReceiptHandle: Messages?.[0]?.ReceiptHandle,
        }),
      );
      // The queue URL is on the endpoint's own host, so the SDK does not redirect to it or warn.
      expect(warn).not.toHaveBeenCalled();

      await sns.send(new PublishCommand({ TopicArn: env.ALERTS_TOPIC_ARN, Message: "from env" }));
      expect((await emulators.readInbox({ atLeast: 1 })).map((message) => message.raw)).toEqual(["from env"]);

      // No S3 client here (see Emulators.clients); the bucket answers a path-style ListObjects.
      const listing = await fetch(`${env.AWS_ENDPOINT_URL_S3}/${env.EVIDENCE_BUCKET}`);
      expect(listing.status).toBe(200);
      expect(await listing.text()).toContain("<ListBucketResult");
    } finally {
      for (const client of [dynamodb, sqs, sns]) client.destroy();
      warn.mockRestore();
      vi.unstubAllEnvs();
    }
  });
});

describe("close()", () => {
  it("stops both servers and is idempotent", async () => {
    const other = await startEmulators({ tableName: "another-table" });
    expect(other.tableName).toBe("another-table");
    await Promise.all([other.close(), other.close()]);
    await other.close();
    await expect(fetch(other.endpoints.dynamodb)).rejects.toThrow();
    await expect(fetch(`${other.endpoints.sqs}/health`)).rejects.toThrow();
  });

  it("leaves nothing open: a process that starts, uses and closes the emulators exits on its own", async () => {
    // Checked in a fresh process, since this one keeps the file's emulators (and vitest's own handles).
    // Without close() the child would hang until the timeout kills it.
    const script = `
      import { startEmulators } from ${JSON.stringify(new URL("../support/emulators.ts", import.meta.url).href)};
      import { PublishCommand } from "@aws-sdk/client-sns";
      import { GetCommand } from "@aws-sdk/lib-dynamodb";
      const emulators = await startEmulators();
      await emulators.clients.sns.send(new PublishCommand({ TopicArn: emulators.topicArn, Message: "m" }));
      await emulators.readInbox({ atLeast: 1 });
      await emulators.clients.documents.send(
        new GetCommand({ TableName: emulators.tableName, Key: { pk: "a", sk: "b" } }),
      );
      await emulators.close();
      console.log("closed");
    `;
    const { stdout } = await execFileAsync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "--eval", script],
      { cwd: fileURLToPath(new URL("../..", import.meta.url)), timeout: 10_000 },
    );
    expect(stdout.trim()).toBe("closed");
  });
});

describe("request counts, and the servers in a process of their own (benchmarks)", () => {
  it("counts each request by service and operation, in this process or in a child", async () => {
    for (const separateProcess of [false, true]) {
      const own = await startEmulators({ separateProcess });
      try {
        expect(own.serverPid === process.pid).toBe(!separateProcess);
        const before = await own.requestCounts();
        await own.clients.documents.send(
          new PutCommand({ TableName: own.tableName, Item: { pk: "count", sk: "1" } }),
        );
        await own.clients.sns.send(new PublishCommand({ TopicArn: own.topicArn, Message: "m" }));
        await own.readInbox({ atLeast: 1 });
        const after = await own.requestCounts();
        const added = (operation: string) => (after[operation] ?? 0) - (before[operation] ?? 0);
        expect(added("DynamoDB PutItem")).toBe(1);
        expect(added("SNS Publish")).toBe(1);
        expect(added("SQS ReceiveMessage")).toBeGreaterThanOrEqual(1);
        expect(added("SQS DeleteMessageBatch")).toBe(1);
      } finally {
        await own.close();
      }
      if (separateProcess) expect(() => process.kill(own.serverPid, 0)).toThrow(); // the child is gone
    }
  });
});
