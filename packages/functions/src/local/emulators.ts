/**
 * In-process AWS emulators for the local mode (`npm start`) and the tests: dynalite (DynamoDB) and fauxqs (SNS, SQS, S3), both on
 * 127.0.0.1 ephemeral ports, driven through the real AWS SDK v3 clients. Nothing here can reach AWS:
 * every client has an explicit endpoint and fixed dummy credentials.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { CreateTopicCommand, SNSClient, SubscribeCommand } from "@aws-sdk/client-sns";
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { EVIDENCE_MAX_RECEIVES } from "@fleet-alerts/core/evidence";
import type { EmulatorProcessMessage } from "./emulator-process.js";
import { isRecord, REGION, startEmulatorServers } from "./emulator-servers.js";

export interface EmulatorOptions {
  /** Default "fleet-alerts-test". */
  tableName?: string;
  /**
   * Run the servers in a child process (benchmarks: the services must not share this process's
   * CPU, as they never do in AWS). Default false: in this process, as the tests and `npm start` do.
   */
  separateProcess?: boolean;
}

export interface InboxMessage {
  /** The SNS MessageId. */
  messageId: string;
  subject?: string;
  /** The SNS message exactly as published (the envelope's Message field). */
  raw: string;
  /**
   * The per-protocol bodies when the publisher used MessageStructure "json". fauxqs does not expand
   * MessageStructure json (it delivers the whole JSON document as the Message), so it is parsed here.
   * On real AWS an SQS subscriber gets only the "sqs" body, or else "default".
   */
  bodies?: { default?: string; email?: string; sms?: string; [protocol: string]: string | undefined };
  /** SNS MessageAttributes as delivered in the SNS envelope. */
  attributes: Record<string, { type: string; value: string }>;
}

export interface ReadOptions {
  /** Keep waiting (long polling) until at least this many messages have arrived. Default 0. */
  atLeast?: number;
  /** Give up waiting for `atLeast` after this long. Default 2000. */
  waitMs?: number;
}

export interface Emulators {
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Each http://127.0.0.1:<port>; sns, sqs and s3 are the same fauxqs server. */
  endpoints: { dynamodb: string; sns: string; sqs: string; s3: string };
  /** S3 is path-style: the endpoint is an IP address. */
  clients: {
    dynamodb: DynamoDBClient;
    documents: DynamoDBDocumentClient;
    sns: SNSClient;
    sqs: SQSClient;
    s3: S3Client;
  };
  tableName: string;
  /** The alerts topic. */
  topicArn: string;
  /** Queue URLs. evidence redrives to evidenceDlq after EVIDENCE_MAX_RECEIVES receives, as deployed; inbox is subscribed to the topic. */
  queues: { evidence: string; evidenceDlq: string; confirm: string; inbox: string };
  /** The evidence bucket (created; reach it path-style). */
  bucket: string;
  /** Where the evidence function stages and verifies clips before copying them into `bucket`. */
  stagingBucket: string;
  /** The environment a Lambda handler would get, pointing the SDK's standard env config at the emulators. */
  env(): Record<string, string>;
  /** Receives (and deletes) everything now in the inbox queue, waiting up to waitMs for at least `atLeast`. */
  readInbox(options?: ReadOptions): Promise<InboxMessage[]>;
  /** Subscribes a new queue to the topic (with a filter policy if given); returns its URL and a reader. */
  subscribeQueue(
    filterPolicy?: Record<string, unknown>,
  ): Promise<{ url: string; read: Emulators["readInbox"] }>;
  /** Requests the servers have served so far, by "<service> <operation>" (S3: by HTTP method). */
  requestCounts(): Promise<Record<string, number>>;
  /** The process the servers run in (this one unless `separateProcess`). */
  serverPid: number;
  /** Stops both servers and destroys the clients; idempotent. */
  close(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: "test", secretAccessKey: "test" };
/** Small: a local emulator either answers or is broken; one retry covers a stale keep-alive socket. */
const MAX_ATTEMPTS = 2;

export async function startEmulators(options: EmulatorOptions = {}): Promise<Emulators> {
  const tableName = options.tableName ?? "fleet-alerts-test";
  const stops: Array<() => Promise<void>> = [];
  let closing: Promise<void> | undefined;
  // Reverse order of start: clients first (their keep-alive sockets), then the servers.
  const close = () => {
    closing ??= (async () => {
      for (const stop of stops.reverse()) await stop();
    })();
    return closing;
  };

  try {
    const servers = options.separateProcess ? await forkServers() : await startInProcess();
    stops.push(servers.close);

    const common = { region: REGION, credentials: CREDENTIALS, maxAttempts: MAX_ATTEMPTS };
    const dynamodb = new DynamoDBClient({ ...common, endpoint: servers.dynamodb });
    const documents = DynamoDBDocumentClient.from(dynamodb);
    const sns = new SNSClient({ ...common, endpoint: servers.fauxqs });
    const sqs = new SQSClient({ ...common, endpoint: servers.fauxqs });
    const s3 = new S3Client({ ...common, endpoint: servers.fauxqs, forcePathStyle: true });
    stops.push(async () => {
      for (const client of [dynamodb, sns, sqs, s3]) client.destroy();
    });

    await createTable(dynamodb, tableName);

    const { TopicArn: topicArn } = await sns.send(
      new CreateTopicCommand({ Name: "fleet-alerts-test-alerts" }),
    );
    if (!topicArn) throw new Error("CreateTopic returned no TopicArn");

    const queueArn = async (url: string) => {
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["QueueArn"] }),
      );
      if (!Attributes?.QueueArn) throw new Error(`no QueueArn for ${url}`);
      return Attributes.QueueArn;
    };
    const createQueue = async (name: string, attributes?: Record<string, string>) => {
      const { QueueUrl } = await sqs.send(
        new CreateQueueCommand({ QueueName: name, Attributes: attributes }),
      );
      if (!QueueUrl) throw new Error(`CreateQueue ${name} returned no QueueUrl`);
      return QueueUrl;
    };
    // Not raw delivery, as in production: the queue gets the SNS JSON envelope, whose
    // MessageAttributes carry the publisher's attributes. (fauxqs, unlike AWS, needs no queue policy
    // allowing sns.amazonaws.com to send.)
    const subscribe = async (url: string, filterPolicy?: Record<string, unknown>) => {
      await sns.send(
        new SubscribeCommand({
          TopicArn: topicArn,
          Protocol: "sqs",
          Endpoint: await queueArn(url),
          Attributes: filterPolicy && { FilterPolicy: JSON.stringify(filterPolicy) },
        }),
      );
    };

    const evidenceDlq = await createQueue("evidence-dlq");
    const evidence = await createQueue("evidence", {
      RedrivePolicy: JSON.stringify({
        deadLetterTargetArn: await queueArn(evidenceDlq),
        maxReceiveCount: EVIDENCE_MAX_RECEIVES,
      }),
    });
    const confirm = await createQueue("confirm");
    const inbox = await createQueue("inbox");
    await subscribe(inbox);

    const bucket = "fleet-alerts-test-evidence";
    const stagingBucket = "fleet-alerts-test-staging";
    for (const name of [bucket, stagingBucket]) await s3.send(new CreateBucketCommand({ Bucket: name }));

    let subscribed = 0;
    const endpoints = {
      dynamodb: servers.dynamodb,
      sns: servers.fauxqs,
      sqs: servers.fauxqs,
      s3: servers.fauxqs,
    };
    const queues = { evidence, evidenceDlq, confirm, inbox };
    return {
      region: REGION,
      credentials: { ...CREDENTIALS },
      endpoints,
      clients: { dynamodb, documents, sns, sqs, s3 },
      tableName,
      topicArn,
      queues,
      bucket,
      stagingBucket,
      env: () => ({
        AWS_REGION: REGION,
        AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
        AWS_EC2_METADATA_DISABLED: "true",
        AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
        AWS_ENDPOINT_URL_SNS: endpoints.sns,
        AWS_ENDPOINT_URL_SQS: endpoints.sqs,
        AWS_ENDPOINT_URL_S3: endpoints.s3,
        TABLE_NAME: tableName,
        ALERTS_TOPIC_ARN: topicArn,
        EVIDENCE_QUEUE_URL: evidence,
        CONFIRM_QUEUE_URL: confirm,
        EVIDENCE_BUCKET: bucket,
        EVIDENCE_STAGING_BUCKET: stagingBucket,
      }),
      readInbox: (readOptions) => readQueue(sqs, inbox, readOptions),
      subscribeQueue: async (filterPolicy) => {
        subscribed += 1;
        const url = await createQueue(`subscriber-${subscribed}`);
        await subscribe(url, filterPolicy);
        return { url, read: (readOptions) => readQueue(sqs, url, readOptions) };
      },
      requestCounts: servers.requestCounts,
      serverPid: servers.pid,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

interface RunningServers {
  dynamodb: string;
  fauxqs: string;
  pid: number;
  requestCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

async function startInProcess(): Promise<RunningServers> {
  const servers = await startEmulatorServers();
  return { ...servers, pid: process.pid, requestCounts: async () => servers.requestCounts() };
}

/**
 * The servers in a child process (emulator-process.ts, TypeScript: loaded through tsx, which
 * `--import` resolves from the working directory, the repository's root under npm scripts).
 */
async function forkServers(): Promise<RunningServers> {
  const child = fork(fileURLToPath(new URL("./emulator-process.ts", import.meta.url)), {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = <K extends EmulatorProcessMessage["kind"]>(kind: K) =>
    new Promise<Extract<EmulatorProcessMessage, { kind: K }>>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the emulator process exited (${code})`));
      child.once("exit", onExit);
      const onMessage = (message: EmulatorProcessMessage) => {
        if (message.kind !== kind) return;
        child.off("message", onMessage).off("exit", onExit);
        resolve(message as Extract<EmulatorProcessMessage, { kind: K }>);
      };
      child.on("message", onMessage);
    });
  const ready = await next("ready");
  return {
    dynamodb: ready.dynamodb,
    fauxqs: ready.fauxqs,
    pid: child.pid as number,
    requestCounts: async () => {
      const reply = next("requests");
      child.send("requests");
      return (await reply).counts;
    },
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send("close");
      await exited;
    },
  };
}

async function createTable(client: DynamoDBClient, tableName: string): Promise<void> {
  // No UpdateTimeToLive: dynalite does not implement it (TTL is an infrastructure setting anyway).
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      AttributeDefinitions: [
        { AttributeName: "pk", AttributeType: "S" },
        { AttributeName: "sk", AttributeType: "S" },
      ],
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
      BillingMode: "PAY_PER_REQUEST",
    }),
  );
  // With createTableMs 0 the table turns ACTIVE on the next tick; the SDK waiter's first retry delay
  // (20 s minimum) would be far too slow, so poll directly.
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await sleep(10)) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === "ACTIVE") return;
  }
  throw new Error(`table ${tableName} did not become ACTIVE`);
}

async function readQueue(sqs: SQSClient, url: string, options: ReadOptions = {}): Promise<InboxMessage[]> {
  const { atLeast = 0, waitMs = 2_000 } = options;
  const deadline = Date.now() + waitMs;
  const messages: InboxMessage[] = [];
  for (;;) {
    const remaining = deadline - Date.now();
    const waiting = messages.length < atLeast && remaining > 0;
    // Long polling counts in whole seconds: round down so as never to wait past the deadline, and
    // short-poll in the last second. Once `atLeast` is met, short polls drain what is left.
    const waitSeconds = waiting ? Math.min(20, Math.floor(remaining / 1_000)) : 0;
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: waitSeconds }),
    );
    if (Messages.length > 0) {
      messages.push(...Messages.map((message) => parseNotification(message.Body)));
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: url,
          Entries: Messages.map((message, index) => ({
            Id: String(index),
            ReceiptHandle: message.ReceiptHandle,
          })),
        }),
      );
    } else if (!waiting) {
      return messages;
    } else if (waitSeconds === 0) {
      await sleep(Math.min(50, remaining));
    }
  }
}

/**
 * Parses the SNS envelope an SQS subscription without raw delivery receives. fauxqs sends
 * `{ Type: "Notification", MessageId, TopicArn, Subject (null when absent), Message, Timestamp,
 * SignatureVersion, Signature, SigningCertURL, UnsubscribeURL, MessageAttributes: { name: { Type, Value } } }`
 * (MessageAttributes always present, `{}` when none).
 */
export function parseNotification(body: string | undefined): InboxMessage {
  const envelope: unknown = body === undefined ? undefined : JSON.parse(body);
  if (
    !isRecord(envelope) ||
    envelope.Type !== "Notification" ||
    typeof envelope.MessageId !== "string" ||
    typeof envelope.Message !== "string"
  ) {
    throw new Error(`not an SNS notification envelope: ${body}`);
  }
  const attributes: InboxMessage["attributes"] = {};
  if (isRecord(envelope.MessageAttributes)) {
    for (const [name, attribute] of Object.entries(envelope.MessageAttributes)) {
      if (isRecord(attribute) && typeof attribute.Type === "string" && typeof attribute.Value === "string") {
        attributes[name] = { type: attribute.Type, value: attribute.Value };
      }
    }
  }
  const bodies = structuredBodies(envelope.Message);
  return {
    messageId: envelope.MessageId,
    ...(typeof envelope.Subject === "string" && { subject: envelope.Subject }),
    raw: envelope.Message,
    ...(bodies && { bodies }),
    attributes,
  };
}

/**
 * The envelope does not say whether MessageStructure "json" was used, so this recognises what SNS
 * accepts for it: a JSON object with a string "default" (other string members are per-protocol
 * bodies). A plain message that happens to have exactly that shape would be read the same way.
 */
function structuredBodies(message: string): InboxMessage["bodies"] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed.default !== "string") return undefined;
  const bodies: NonNullable<InboxMessage["bodies"]> = {};
  for (const [protocol, value] of Object.entries(parsed)) {
    if (typeof value === "string") bodies[protocol] = value;
  }
  return bodies;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
