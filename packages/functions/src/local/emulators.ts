/**
 * In-process AWS emulators for the local mode (`npm start`) and the tests: dynalite (DynamoDB) and fauxqs (SNS, SQS, S3), both on
 * 127.0.0.1 ephemeral ports, driven through the real AWS SDK v3 clients. Nothing here can reach AWS:
 * every client has an explicit endpoint and fixed dummy credentials.
 */
import type { IncomingHttpHeaders, Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
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
import { buildApp } from "fauxqs";

export interface EmulatorOptions {
  /** Default "fleet-alerts-test". */
  tableName?: string;
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
  /** Queue URLs. evidence redrives to evidenceDlq after 3 receives; inbox is subscribed to the topic. */
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
  /** Stops both servers and destroys the clients; idempotent. */
  close(): Promise<void>;
}

const REGION = "us-east-1";
const CREDENTIALS = { accessKeyId: "test", secretAccessKey: "test" };
/** Small: a local emulator either answers or is broken; one retry covers a stale keep-alive socket. */
const MAX_ATTEMPTS = 2;
const HOST = "127.0.0.1";

// dynalite ships no type declarations (and no @types package is installed): load it through require
// and describe the little that is used.
interface DynaliteOptions {
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}
const dynalite = createRequire(import.meta.url)("dynalite") as (options: DynaliteOptions) => Server;

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
    const dynamodbServer = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    await new Promise<void>((resolve, reject) => {
      dynamodbServer.once("error", reject);
      dynamodbServer.listen(0, HOST, () => resolve());
    });
    stops.push(() => closeDynalite(dynamodbServer));
    const dynamodbEndpoint = `http://${HOST}:${(dynamodbServer.address() as AddressInfo).port}`;

    const fauxqs = await startFauxqsOnLoopback();
    stops.push(fauxqs.close);

    const common = { region: REGION, credentials: CREDENTIALS, maxAttempts: MAX_ATTEMPTS };
    const dynamodb = new DynamoDBClient({ ...common, endpoint: dynamodbEndpoint });
    const documents = DynamoDBDocumentClient.from(dynamodb);
    const sns = new SNSClient({ ...common, endpoint: fauxqs.endpoint });
    const sqs = new SQSClient({ ...common, endpoint: fauxqs.endpoint });
    const s3 = new S3Client({ ...common, endpoint: fauxqs.endpoint, forcePathStyle: true });
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
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: await queueArn(evidenceDlq), maxReceiveCount: 3 }),
    });
    const confirm = await createQueue("confirm");
    const inbox = await createQueue("inbox");
    await subscribe(inbox);

    const bucket = "fleet-alerts-test-evidence";
    const stagingBucket = "fleet-alerts-test-staging";
    for (const name of [bucket, stagingBucket]) await s3.send(new CreateBucketCommand({ Bucket: name }));

    let subscribed = 0;
    const endpoints = {
      dynamodb: dynamodbEndpoint,
      sns: fauxqs.endpoint,
      sqs: fauxqs.endpoint,
      s3: fauxqs.endpoint,
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
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The part of the Fastify app from fauxqs's `buildApp()` used here. fauxqs 1.9.2's declaration of its
 * return type does not resolve ("Cannot find namespace 'Fastify'"; hidden by skipLibCheck), so it
 * would otherwise be `any`.
 */
interface FauxqsApp {
  addHook(
    name: "preHandler",
    hook: (request: { headers: IncomingHttpHeaders; body: unknown }) => Promise<void>,
  ): void;
  addHook(
    name: "onSend",
    hook: (request: { headers: IncomingHttpHeaders }, reply: unknown, payload: unknown) => Promise<unknown>,
  ): void;
  listen(options: { port: number; host: string }): Promise<string>;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * fauxqs on 127.0.0.1 only. Its `startFauxqs()` always binds 0.0.0.0, so this builds the app and
 * listens itself.
 *
 * fauxqs also names queues `http://sqs.<region>.localhost:<port>/000000000000/<name>`. That name does
 * not resolve here (only `localhost` itself is in /etc/hosts), and an SQSClient configured from
 * AWS_ENDPOINT_URL_SQS (as handlers are) sends each request to its QueueUrl's host whenever it differs
 * from the endpoint, so it would fail with ENOTFOUND. fauxqs looks queues up by the exact URL string,
 * so the URL is translated at the server's edge instead: clients only ever see
 * `http://127.0.0.1:<port>/000000000000/<name>`, like an AWS queue URL on the endpoint's own host.
 */
async function startFauxqsOnLoopback(): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const app: FauxqsApp = buildApp({ logger: false });
  let publicBase = "";
  let internalBase = "";
  const isSqs = (contentType: string | undefined) =>
    contentType?.includes("application/x-amz-json-1.0") === true;
  app.addHook("preHandler", async (request) => {
    const body: unknown = request.body;
    if (!isSqs(request.headers["content-type"]) || !isRecord(body) || typeof body.QueueUrl !== "string")
      return;
    if (body.QueueUrl.startsWith(publicBase)) {
      body.QueueUrl = internalBase + body.QueueUrl.slice(publicBase.length);
    }
  });
  // Only CreateQueue, GetQueueUrl, ListQueues and errors return queue URLs; no client ever sees an
  // internal URL, so none can be inside a message body either.
  app.addHook("onSend", async (request, _reply, payload) =>
    isSqs(request.headers["content-type"]) && typeof payload === "string"
      ? payload.replaceAll(internalBase, publicBase)
      : payload,
  );
  await app.listen({ port: 0, host: HOST });
  const { port } = app.server.address() as AddressInfo;
  publicBase = `http://${HOST}:${port}/`;
  internalBase = `http://sqs.${REGION}.localhost:${port}/`;
  // fauxqs sets forceCloseConnections, so close() does not wait for clients' keep-alive sockets.
  return { endpoint: `http://${HOST}:${port}`, close: () => app.close() };
}

function closeDynalite(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    // dynalite's close() waits for the HTTP server to close, which waits for open keep-alive sockets
    // (for example from a client a test built from env() and never destroyed): drop them.
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
