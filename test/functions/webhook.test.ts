import { randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateTopicCommand } from "@aws-sdk/client-sns";
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import { renderJson } from "@fleet-alerts/core/alerts";
import { derivedShareToken } from "@fleet-alerts/core/share";
import { getItem, keys } from "@fleet-alerts/core/store";
import {
  WEBHOOK_CLAIM_LEASE_MS,
  WebhookDeliveryStore,
  type WebhookJob,
  webhookMessageId,
  webhookPayloadSchema,
} from "@fleet-alerts/core/webhooks";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookHandler } from "../../packages/functions/src/webhook.js";
import { CONTEXT } from "../../packages/local/src/delivery.js";
import { sqsEvent } from "../../packages/local/src/sqs-event.js";
import { factsOf } from "../core/alerts/fixtures.js";
import { type Emulators, startEmulators } from "../support/emulators.js";
import { fleetAlerts } from "./cli/run.js";

// The webhook function on the emulators (dynalite, fauxqs) against a receiver on 127.0.0.1: each
// target's path answers in its own way. Small numbers keep it fast: 3 receives, a 1 s deadline (a loaded machine must not time out the answering targets).
const MAX_RECEIVES = 3;
const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const LINK_SECRET = randomBytes(24).toString("base64url");
const TARGETS = {
  hook: { kind: "webhook", path: "/ok" },
  chat: { kind: "slack", path: "/slack" },
  flaky: { kind: "webhook", path: "/flaky" },
  broken: { kind: "webhook", path: "/fail" },
  slow: { kind: "webhook", path: "/hang" },
  gone: { kind: "webhook", path: "/gone" },
  vanished: { kind: "webhook", path: "/gone" },
  picky: { kind: "webhook", path: "/bad" },
} as const;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
const hanging: ServerResponse[] = [];
let flakyLeft = 2;
const answer = (path: string, response: ServerResponse) => {
  if (path === "/hang") return void hanging.push(response);
  const status =
    { "/fail": 500, "/gone": 410, "/bad": 400 }[path] ?? (path === "/flaky" && flakyLeft-- > 0 ? 500 : 200);
  response.writeHead(status).end();
};

let emulators: Emulators;
let server: Server;
let queueUrl: string;
let dlqUrl: string;
let ops: Awaited<ReturnType<Emulators["subscribeQueue"]>>;
let handler: ReturnType<typeof createWebhookHandler>;
let env: Record<string, string>;
const logged: string[] = [];
const log = (level: string) => (message: string, attributes: Record<string, unknown>) =>
  void logged.push(JSON.stringify({ level, message, ...attributes }));

beforeAll(async () => {
  emulators = await startEmulators({ subscribeInbox: false });
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body });
      answer(request.url ?? "", response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { sqs, sns } = emulators.clients;
  dlqUrl = (await sqs.send(new CreateQueueCommand({ QueueName: "webhook-test-dlq" }))).QueueUrl as string;
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ["QueueArn"] }),
  );
  queueUrl = (
    await sqs.send(
      new CreateQueueCommand({
        QueueName: "webhook-test",
        Attributes: {
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: Attributes?.QueueArn,
            maxReceiveCount: MAX_RECEIVES,
          }),
        },
      }),
    )
  ).QueueUrl as string;
  const opsTopicArn = (await sns.send(new CreateTopicCommand({ Name: "ops" }))).TopicArn as string;
  ops = await emulators.subscribeQueue(undefined, opsTopicArn);
  const dir = await mkdtemp(join(tmpdir(), "webhooks-"));
  const groupsFile = join(dir, "groups.json");
  const targets = Object.fromEntries(Object.entries(TARGETS).map(([id, { kind }]) => [id, { kind }]));
  await writeFile(
    groupsFile,
    JSON.stringify({
      groups: [{ name: "all", email: ["ops@example.com"], targets: Object.keys(targets) }],
      targets,
    }),
  );
  env = {
    ...emulators.env(),
    WEBHOOK_QUEUE_URL: queueUrl,
    WEBHOOK_DLQ_URL: dlqUrl,
    OPS_TOPIC_ARN: opsTopicArn,
    GROUPS_FILE: groupsFile,
    PUBLIC_BASE_URL: "https://alerts.example.com",
    SHARE_LINK_SECRET: LINK_SECRET,
    WEBHOOK_TIMEOUT_MS: "1000",
    WEBHOOK_MAX_RECEIVES: String(MAX_RECEIVES),
    WEBHOOK_RETRY_BASE_SECONDS: "0",
    WEBHOOK_ALLOW_LOOPBACK_HTTP: "1",
  };
  for (const [id, { path }] of Object.entries(TARGETS)) {
    env[`TARGET_${id.toUpperCase()}_URL`] = `${base}${path}`;
    env[`TARGET_${id.toUpperCase()}_SECRET`] = SECRET;
  }
  handler = createWebhookHandler(env, {
    logger: { info: log("info"), warn: log("warn"), error: log("error") },
  });
}, 20_000);

afterAll(async () => {
  for (const response of hanging) response.destroy();
  await new Promise((resolve) => server?.close(resolve));
  await emulators?.close();
});

let serial = 1000;
function job(targetId: string): WebhookJob {
  const alertId = `north:${++serial}:gsensor`;
  const alert = { ...JSON.parse(renderJson(factsOf())), alertId, account: "north", serialno: String(serial) };
  return { version: 1, alertId, account: "north", targetId, alert, incidentLink: true };
}

/** Sends the jobs, then works the queue as Lambda would, each message `copies` times per batch, until it is empty. */
async function run(jobs: WebhookJob[], copies = 1) {
  const { sqs } = emulators.clients;
  for (const sent of jobs)
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(sent) }));
  for (;;) {
    const { Attributes = {} } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    );
    if (Object.values(Attributes).every((count) => Number(count) === 0)) return;
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        MessageSystemAttributeNames: ["ApproximateReceiveCount"],
      }),
    );
    if (Messages.length === 0) continue;
    const copied = Messages.flatMap((message) =>
      Array.from({ length: copies }, (_, copy) => ({
        ...message,
        MessageId: `${message.MessageId}/${copy}`,
      })),
    );
    const { batchItemFailures } = await handler(sqsEvent(copied), CONTEXT);
    const failed = new Set(batchItemFailures.map(({ itemIdentifier }) => itemIdentifier.split("/")[0]));
    const done = Messages.filter((message) => !failed.has(message.MessageId));
    if (done.length > 0)
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: done.map((message, index) => ({ Id: `d${index}`, ReceiptHandle: message.ReceiptHandle })),
        }),
      );
  }
}

async function deadLetters(): Promise<Array<{ job: WebhookJob; reason?: string }>> {
  const { Messages = [] } = await emulators.clients.sqs.send(
    new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ["All"] }),
  );
  if (Messages.length > 0)
    await emulators.clients.sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: dlqUrl,
        Entries: Messages.map((message, index) => ({
          Id: `d${index}`,
          ReceiptHandle: message.ReceiptHandle,
        })),
      }),
    );
  return Messages.map((message) => ({
    job: JSON.parse(message.Body as string),
    ...(message.MessageAttributes?.reason && { reason: message.MessageAttributes.reason.StringValue }),
  }));
}

const at = (path: string) => received.filter((request) => request.path === path);
const idsOf = (requests: Received[]) => requests.map((request) => request.headers["webhook-id"]);

describe("the webhook function", () => {
  it("signs as Standard Webhooks say (verified with the standardwebhooks library) and delivers once per id though every job comes twice", async () => {
    const jobs = [job("hook"), job("hook"), job("chat")];
    await run(jobs, 2);
    const hooks = at("/ok");
    expect(idsOf(hooks).sort()).toEqual(
      jobs
        .slice(0, 2)
        .map((sent) => webhookMessageId(sent.alertId, "hook"))
        .sort(),
    );
    const verifier = new Webhook(SECRET);
    for (const request of hooks) {
      const payload = webhookPayloadSchema.parse(
        verifier.verify(request.body, request.headers as Record<string, string>),
      );
      const { token } = derivedShareToken(LINK_SECRET, payload.data.alertId);
      expect(payload.data.link).toBe(`https://alerts.example.com/i/${token}`);
      expect(payload.data).not.toHaveProperty("drivername");
    }
    // Slack's and Teams' URLs are their secret: not signed.
    expect(at("/slack")).toHaveLength(1);
    expect(at("/slack")[0]?.headers).not.toHaveProperty("webhook-signature");
    expect(JSON.parse(at("/slack")[0]?.body ?? "{}")).toHaveProperty("blocks");
    expect(await deadLetters()).toEqual([]);
  }, 15_000);

  it("retries a 500 with the same webhook-id until a 2xx, then never again", async () => {
    const sent = job("flaky");
    await run([sent]);
    const ids = idsOf(at("/flaky"));
    expect(ids).toEqual(Array(3).fill(webhookMessageId(sent.alertId, "flaky")));
    await run([{ ...sent }]); // replayed: found delivered
    expect(at("/flaky")).toHaveLength(3);
  }, 15_000);

  it("retries 500s and timeouts, and after the last receive SQS moves the job to the DLQ", async () => {
    const [broken, slow] = [job("broken"), job("slow")];
    await run([broken, slow]);
    expect(at("/fail")).toHaveLength(MAX_RECEIVES);
    expect(at("/hang")).toHaveLength(MAX_RECEIVES);
    const dead = await deadLetters();
    expect(dead.map(({ job: { alertId } }) => alertId).sort()).toEqual([broken.alertId, slow.alertId].sort());
    expect(logged.filter((line) => line.includes('"final":true'))).toHaveLength(2);
    expect(logged.join("\n")).toContain("target slow did not answer within 1000 ms");
  }, 15_000);

  it("disables a target answering 410, tells ops once, and drops its later jobs", async () => {
    await run([job("gone"), job("gone")]);
    const item = await getItem(
      { documents: emulators.clients.documents, tableName: emulators.tableName },
      keys.target("gone"),
      keys.targetState,
    );
    expect(item).toMatchObject({ reason: "410 Gone", disabledAtMs: expect.any(Number) });
    // Both jobs were received at once (one batch, side by side): one disabled it, one told ops.
    const notices = await ops.read({ atLeast: 1, waitMs: 2000 });
    expect(notices).toHaveLength(1);
    expect(JSON.stringify(notices[0])).toContain("fleet-alerts target enable gone");
    expect(notices[0]?.attributes.notice_id?.value).toBe(`target-disabled:gone:${item?.disabledAtMs}`);
    const before = at("/gone").length;
    await run([job("gone")]);
    expect(at("/gone")).toHaveLength(before);
    expect(logged.some((line) => line.includes('"outcome":"target-disabled"'))).toBe(true);
    expect(await deadLetters()).toEqual([]);

    // The operator enables it again, as the notice says.
    const env = { ...emulators.env(), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" };
    expect(await fleetAlerts(["target", "enable", "gone"], { env })).toMatchObject({
      code: 0,
      stdout: "target gone: enabled\n",
    });
    expect(
      await getItem(
        { documents: emulators.clients.documents, tableName: emulators.tableName },
        keys.target("gone"),
        keys.targetState,
      ),
    ).toBeUndefined();
  }, 20_000);

  it("tells ops of a target disabled by a receive that died before telling: not within the wall clock's lease, then once", async () => {
    const wallMs = Date.parse("2027-01-01T00:00:00Z");
    const receive = (using: ReturnType<typeof createWebhookHandler>, sent: WebhookJob) =>
      using(
        sqsEvent([{ MessageId: "m", ReceiptHandle: "r", Body: JSON.stringify(sent), Attributes: {} }]),
        CONTEXT,
      ).then((response) => response.batchItemFailures.map(({ itemIdentifier }) => itemIdentifier));
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const at = (ms: number, options: { opsGone?: boolean } = {}) =>
      createWebhookHandler(
        { ...env, ...(options.opsGone && { OPS_TOPIC_ARN: `${env.OPS_TOPIC_ARN}-gone` }) },
        { logger: quiet, wallClock: () => ms },
      );

    // The 410 disables the target; telling ops fails (as a receive dying there would leave it).
    expect(await receive(at(wallMs, { opsGone: true }), job("vanished"))).toEqual(["m"]);
    const table = { documents: emulators.clients.documents, tableName: emulators.tableName };
    const state = await getItem(table, keys.target("vanished"), keys.targetState);
    expect(state).toMatchObject({ reason: "410 Gone", noticeClaimedAtMs: wallMs });
    expect(state).not.toHaveProperty("noticeToldAtMs");

    // A later receive within the claim's lease: nothing told, and it comes back (its job may be the
    // one left to see the notice out).
    expect(await receive(at(wallMs + 60_000), job("vanished"))).toEqual(["m"]);
    expect(await ops.read({ waitMs: 300 })).toEqual([]);

    // Past the lease: taken over, told once; later jobs are dropped quietly.
    expect(await receive(at(wallMs + WEBHOOK_CLAIM_LEASE_MS), job("vanished"))).toEqual([]);
    const notices = await ops.read({ atLeast: 1, waitMs: 2000 });
    expect(notices).toHaveLength(1);
    expect(notices[0]?.attributes.notice_id?.value).toBe(`target-disabled:vanished:${state?.disabledAtMs}`);
    expect(await receive(at(wallMs + 2 * WEBHOOK_CLAIM_LEASE_MS), job("vanished"))).toEqual([]);
    expect(await ops.read({ waitMs: 300 })).toEqual([]);
  }, 20_000);

  it("sends a job refused with another 4xx to the DLQ at once, with the reason", async () => {
    const sent = job("picky");
    await run([sent]);
    expect(at("/bad")).toHaveLength(1);
    expect(await deadLetters()).toEqual([{ job: sent, reason: "target picky answered 400" }]);
  }, 15_000);

  it("takes over a claim whose holder outlived its lease, never a delivered one", async () => {
    const store = new WebhookDeliveryStore({
      documents: emulators.clients.documents,
      tableName: emulators.tableName,
    });
    const delivery = { targetId: "hook", alertId: "north:1:lease" };
    expect(await store.claim(delivery, "first", 1_000, 5_000)).toBe("claimed");
    expect(await store.claim(delivery, "second", 5_000, 5_000)).toBe("in-flight");
    expect(await store.claim(delivery, "third", 7_000, 5_000)).toBe("claimed");
    await store.release(delivery, "first"); // the crashed holder's late release changes nothing
    await store.markDelivered(delivery, "third", 7_500, 204);
    expect(await store.claim(delivery, "fourth", 99_000, 5_000)).toBe("delivered");
  });

  it("leaves a live delivery claim alone while only the business clock runs ahead, and takes it over past its lease", async () => {
    const wallMs = Date.parse("2027-01-01T00:00:00Z");
    const sent = job("hook");
    const store = new WebhookDeliveryStore({
      documents: emulators.clients.documents,
      tableName: emulators.tableName,
    });
    // A receive that claimed the delivery and is still posting (or died doing it).
    await store.claim(
      { targetId: "hook", alertId: sent.alertId },
      "elsewhere",
      wallMs,
      WEBHOOK_CLAIM_LEASE_MS,
    );
    const receive = (wallClock: number) =>
      createWebhookHandler(env, {
        logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
        // The business clock hours ahead, as the local mode's may be: claims go by the wall clock.
        now: () => Date.now() + 6 * 3_600_000,
        wallClock: () => wallClock,
      })(
        sqsEvent([{ MessageId: "m", ReceiptHandle: "r", Body: JSON.stringify(sent), Attributes: {} }]),
        CONTEXT,
      );
    const posted = () => idsOf(at("/ok")).filter((id) => id === webhookMessageId(sent.alertId, "hook"));
    expect((await receive(wallMs + 60_000)).batchItemFailures).toEqual([{ itemIdentifier: "m" }]);
    expect(posted()).toEqual([]);
    expect((await receive(wallMs + WEBHOOK_CLAIM_LEASE_MS + 1)).batchItemFailures).toEqual([]);
    expect(posted()).toHaveLength(1);
  });

  it("never logs a URL, a secret or a link token", () => {
    const output = logged.join("\n");
    expect(output).not.toContain("127.0.0.1");
    expect(output).not.toContain(SECRET.slice(6, 20));
    expect(output).not.toContain(LINK_SECRET);
    expect(output).not.toMatch(/\/i\/[A-Za-z0-9_-]{20,}/);
  });
});
