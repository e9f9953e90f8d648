/**
 * In-process AWS emulators for the local mode (`npm start`) and the tests: dynalite (DynamoDB) and fauxqs (SNS, SQS, S3), both on
 * 127.0.0.1 ephemeral ports, driven through the real AWS SDK v3 clients. Nothing here can reach AWS:
 * every client has an explicit endpoint and fixed dummy credentials.
 */
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { CreateTopicCommand, SNSClient, SubscribeCommand } from "@aws-sdk/client-sns";
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { EVIDENCE_MAX_RECEIVES } from "@fleet-alerts/core/evidence";
import { WEBHOOK_MAX_RECEIVES } from "@fleet-alerts/core/webhooks";
import { forkServers, startInProcess } from "./emulator-host.js";
import { REGION } from "./emulator-servers.js";
import { type InboxMessage, type ReadOptions, readQueue } from "./notifications.js";

export { type InboxMessage, parseNotification, type ReadOptions } from "./notifications.js";

export interface EmulatorOptions {
  /** Default "fleet-alerts-test". */
  tableName?: string;
  /**
   * Run the servers in a child process (benchmarks: the services must not share this process's
   * CPU, as they never do in AWS). Default false: in this process, as the tests and `npm start` do.
   */
  separateProcess?: boolean;
  /**
   * Subscribe the inbox queue to the topic. Default true, as the tests read alerts there; the
   * local mode reads what the handlers observed instead, and nothing would drain it.
   */
  subscribeInbox?: boolean;
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
  /** Escalated alerts; each message's `level` attribute says to which level's people. */
  escalationTopicArn: string;
  /** The ops topic: alarms in a deployed stage; here, records set aside and a webhook target disabled by a 410. */
  opsTopicArn: string;
  /**
   * Queue URLs. evidence redrives to evidenceDlq after EVIDENCE_MAX_RECEIVES receives, as deployed;
   * inbox is subscribed to the topic unless `subscribeInbox` is false; escalation holds the delayed
   * escalation jobs.
   */
  queues: {
    evidence: string;
    evidenceDlq: string;
    confirm: string;
    escalation: string;
    webhook: string;
    webhookDlq: string;
    inbox: string;
    /** The poll chains' timers (infra/polling.ts): each message one poll of one account, delayed. */
    pollTimer: string;
  };
  /** The evidence bucket (created; reach it path-style). */
  bucket: string;
  /** Where the evidence function stages and verifies clips before copying them into `bucket`. */
  stagingBucket: string;
  /** The environment a Lambda handler would get, pointing the SDK's standard env config at the emulators. */
  env(): Record<string, string>;
  /** Receives (and deletes) everything now in the inbox queue, waiting up to waitMs for at least `atLeast`. */
  readInbox(options?: ReadOptions): Promise<InboxMessage[]>;
  /**
   * Subscribes a new queue to a topic (the alerts topic unless named), with a filter policy if
   * given; returns its URL and a reader.
   */
  subscribeQueue(
    filterPolicy?: Record<string, unknown>,
    topic?: string,
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
    const { TopicArn: escalationTopicArn } = await sns.send(
      new CreateTopicCommand({ Name: "fleet-alerts-test-escalation" }),
    );
    if (!escalationTopicArn) throw new Error("CreateTopic returned no TopicArn");
    const { TopicArn: opsTopicArn } = await sns.send(
      new CreateTopicCommand({ Name: "fleet-alerts-test-ops" }),
    );
    if (!opsTopicArn) throw new Error("CreateTopic returned no TopicArn");

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
    const subscribe = async (url: string, filterPolicy?: Record<string, unknown>, topic = topicArn) => {
      await sns.send(
        new SubscribeCommand({
          TopicArn: topic,
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
    const escalation = await createQueue("escalation");
    const webhookDlq = await createQueue("webhook-dlq");
    const webhook = await createQueue("webhook", {
      RedrivePolicy: JSON.stringify({
        deadLetterTargetArn: await queueArn(webhookDlq),
        maxReceiveCount: WEBHOOK_MAX_RECEIVES,
      }),
    });
    const inbox = await createQueue("inbox");
    const pollTimer = await createQueue("poll-timer");
    if (options.subscribeInbox !== false) await subscribe(inbox);

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
    const queues = { evidence, evidenceDlq, confirm, escalation, webhook, webhookDlq, inbox, pollTimer };
    return {
      region: REGION,
      credentials: { ...CREDENTIALS },
      endpoints,
      clients: { dynamodb, documents, sns, sqs, s3 },
      tableName,
      topicArn,
      escalationTopicArn,
      opsTopicArn,
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
        ESCALATION_TOPIC_ARN: escalationTopicArn,
        ESCALATION_QUEUE_URL: escalation,
        WEBHOOK_QUEUE_URL: webhook,
        WEBHOOK_DLQ_URL: webhookDlq,
        POLL_TIMER_QUEUE_URL: pollTimer,
        OPS_TOPIC_ARN: opsTopicArn,
        EVIDENCE_BUCKET: bucket,
        EVIDENCE_STAGING_BUCKET: stagingBucket,
      }),
      readInbox: (readOptions) => readQueue(sqs, inbox, readOptions),
      subscribeQueue: async (filterPolicy, topic) => {
        subscribed += 1;
        const url = await createQueue(`subscriber-${subscribed}`);
        await subscribe(url, filterPolicy, topic);
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
