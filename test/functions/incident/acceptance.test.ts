import { createHash, randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { Logger } from "@aws-lambda-powertools/logger";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import type { Observation } from "@fleet-alerts/core";
import type { CurrentManifest } from "@fleet-alerts/core/evidence";
import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createEscalateHandler } from "../../../packages/functions/src/escalate.js";
import { createEvidenceHandler } from "../../../packages/functions/src/evidence.js";
import { type IncidentServer, serveIncidentApp } from "../../../packages/functions/src/incident-server.js";
import { logObserver } from "../../../packages/functions/src/observability.js";
import { createPollHandler } from "../../../packages/functions/src/poll.js";
import { CONTEXT } from "../../../packages/local/src/delivery.js";
import { type Pipeline, startPipeline } from "../../core/poller/pipeline.js";
import { launchBrowser } from "../../support/browser.js";
import { drainQueue } from "../../support/drain-queue.js";
import type { InboxMessage } from "../../support/emulators.js";

// Issue 15's acceptance, end to end: the real poll, evidence and escalate handlers on the simulator
// and the emulators, the incident app served on 127.0.0.1 as the local mode serves it, and a
// fleet manager's Chromium opening the link from the alert's email as it was delivered.
//
// The handlers live by a clock running SCALE times faster than real time and SQS delays shrink with
// it, as in the local mode: the rule's 1-minute levels come due after 2 s and 4 s.
const SCALE = 30;
const RULES = [
  {
    id: "crash",
    events: [16],
    severity: "critical" as const,
    evidence: { channels: [1], secondsBefore: 10, secondsAfter: 10 },
    escalate: { after: "1m", levels: 2 },
  },
];
const LINK = /http:\/\/127\.0\.0\.1:\d+\/i\/[A-Za-z0-9_-]{22}/;

let pipeline: Pipeline;
let server: IncidentServer;
let browser: Browser;
let now: () => number;
let poll: ReturnType<typeof createPollHandler>;
let evidence: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;
let escalate: typeof evidence;
let inbox: Pick<Pipeline["emulators"], "readInbox">;
let levels: { read: Pipeline["emulators"]["readInbox"] }[];
const observations: Observation[] = [];
// Everything the handlers and the app log, at debug level, as Lambda would get it; and every link
// any message carried. No line may hold a link's token.
const printed: string[] = [];
const linksSent = new Set<string>();

beforeAll(async () => {
  for (const stream of [process.stdout, process.stderr])
    vi.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
  const log = new Logger({ serviceName: "fleet-alerts", logLevel: "DEBUG" });
  const lambdaObserver = logObserver(log);
  const observer = {
    observe(observation: Observation) {
      observations.push(observation);
      lambdaObserver.observe(observation);
    },
  };
  pipeline = await startPipeline({
    rules: RULES,
    // Small clips (a minute is about 1 MB); the clock at the real time, so "recorded" means what it would.
    simulator: { bitrateBitsPerSecond: 128_000, clock: { start: new Date() } },
  });
  const { emulators, simulator } = pipeline;
  inbox = emulators;
  levels = await Promise.all(
    ["1", "2"].map((level) => emulators.subscribeQueue({ level: [level] }, emulators.escalationTopicArn)),
  );
  server = await serveIncidentApp(
    (baseUrl) => ({
      ...pipeline.env,
      PUBLIC_BASE_URL: baseUrl,
      INCIDENT_FORM_SECRET: randomBytes(24).toString("base64url"),
    }),
    { logger: log, observer },
  );
  const startMs = simulator.control.now().getTime();
  const realStartMs = Date.now();
  now = () => startMs + (Date.now() - realStartMs) * SCALE;
  const overrides = {
    logger: log,
    observer,
    now,
    timeScale: SCALE,
  };
  const env = {
    ...pipeline.env,
    PUBLIC_BASE_URL: server.baseUrl,
    SHARE_LINK_SECRET: randomBytes(32).toString("base64url"),
  };
  poll = createPollHandler(env, overrides);
  evidence = createEvidenceHandler(env, overrides);
  escalate = createEscalateHandler(env, overrides);
  await poll({}, CONTEXT); // starts at the newest event: no history is alerted
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await browser?.close();
  await server?.close();
  await pipeline?.close();
});

/** A crash an hour ago on a device that recorded it, published by the poll handler: its alert id and email. */
async function publishedCrash(): Promise<{ alertId: string; email: InboxMessage }> {
  const { control } = pipeline.simulator;
  const device = control.devices().find((candidate) => candidate.channels >= 1);
  const eventtime = new Date(control.now().getTime() - 3_600_000);
  control.setRecording(
    device?.deviceid as string,
    new Date(eventtime.getTime() - 120_000),
    new Date(eventtime.getTime() + 120_000),
    1,
  );
  const event = control.injectEvent({ appdevid: 16, deviceid: device?.deviceid as string, eventtime });
  const [summary] = await poll({}, CONTEXT);
  expect(summary).toMatchObject({ alertsPublished: 1 });
  const [email] = await inbox.readInbox({ atLeast: 1 });
  expect(email?.attributes.kind?.value).toBe("alert");
  return { alertId: `north:${event.serialno}:crash`, email: email as InboxMessage };
}

/** A queue's messages to a handler until it is empty, each delivered `copies` times. */
const drain = (url: string, handler: typeof evidence, copies = 1) =>
  drainQueue(pipeline.emulators.clients.sqs, url, handler, copies);

/** A browser context whose requests reach only this machine (the app and the S3 emulator). */
async function localContext(): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.route("**/*", (route) =>
    /^http:\/\/127\.0\.0\.1:\d+\//.test(route.request().url()) ? route.continue() : route.abort(),
  );
  return context;
}

/** The manifest the evidence function stored for the alert, read from the bucket. */
async function storedManifest(alertId: string): Promise<CurrentManifest> {
  const keys = (await recordOf(alertId))?.evidenceKeys ?? [];
  const key = keys.find((candidate) => candidate.endsWith("/manifest.json"));
  const { Body } = await pipeline.emulators.clients.s3.send(
    new GetObjectCommand({ Bucket: pipeline.emulators.bucket, Key: key }),
  );
  return JSON.parse((await Body?.transformToString()) ?? "null");
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
/** The incident link in a message's text, remembered as sent. */
const linkIn = (text: string | undefined) => {
  const link = LINK.exec(text ?? "")?.[0];
  if (link !== undefined) linksSent.add(link);
  return link;
};
const recordOf = (alertId: string) => {
  const [account, serialno, ruleId] = alertId.split(":") as [string, string, string];
  return pipeline
    .runtime()
    .then(({ pollers }) => pollers[0]?.deps.alerts.get(account, BigInt(serialno), ruleId));
};
const escalated = (alertId: string) =>
  observations
    .filter((o) => o.type === "alert-escalated" && o.alertId === alertId)
    .map((o) => "level" in o && o.level);

describe("a fleet manager opens an alert's link, watches its video and acknowledges it", () => {
  it("from the email as delivered, through stored evidence, to an acknowledgement that stops escalation", async () => {
    const { alertId, email } = await publishedCrash();
    const link = linkIn(email.bodies?.email);
    expect(link, "the email carries the incident link").toBeDefined();
    // Links are compared, never printed: a failing assertion would show its values.
    expect(email.bodies?.sms?.includes(link as string), "the SMS carries the link").toBe(true);
    expect(email.bodies?.sms?.length).toBeLessThanOrEqual(160);

    const context = await localContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(link as string);
    const record = await recordOf(alertId);
    await expect(page.locator("h1").textContent()).resolves.toContain("GSensor");
    await expect(page.locator("#event").textContent()).resolves.toContain(record?.deviceid);
    await expect(page.locator("#evidence").textContent()).resolves.toContain("pending");

    // The evidence function stores the clip; its message carries the same link.
    await drain(pipeline.emulators.queues.evidence, evidence);
    const [ready] = await inbox.readInbox({ atLeast: 1 });
    expect(ready?.attributes.kind?.value).toBe("evidence");
    expect(linkIn(ready?.bodies?.email) === link, "the evidence email carries the alert's link").toBe(true);
    expect(ready?.bodies?.sms?.endsWith(` ${link}`)).toBe(true);

    await page.reload();
    await expect(page.locator("#evidence").textContent()).resolves.toContain("stored");
    // The player plays what the app's clip route redirects to, presigned for at most 15 minutes.
    await page.waitForFunction(`document.querySelector("video")?.readyState >= 2`);
    const source = await page.locator("video").first().getAttribute("src");
    const redirect = await context.request.get(new URL(source as string, link).href, { maxRedirects: 0 });
    expect(redirect.status()).toBe(302);
    const presigned = new URL(redirect.headers().location as string);
    expect(Number(presigned.searchParams.get("X-Amz-Expires"))).toBeLessThanOrEqual(900);
    const manifest = await storedManifest(alertId);
    const clip = await context.request.get(presigned.href);
    expect(sha256(await clip.body())).toBe(manifest.clips[0]?.sha256);
    await expect(page.locator("body").textContent()).resolves.toContain(manifest.clips[0]?.sha256);

    await mkdir("test-artifacts", { recursive: true });
    await page.screenshot({ path: "test-artifacts/incident-page-from-email.png", fullPage: true });

    await page.getByLabel("Your name").fill("Fleet Manager Fran");
    await page.getByRole("button", { name: "Acknowledge" }).click();
    await page.locator("#acknowledgement", { hasText: "Acknowledged by Fleet Manager Fran at" }).waitFor();
    expect((await recordOf(alertId))?.acknowledgement).toMatchObject({ by: "Fleet Manager Fran" });
    await context.close();

    // Both levels come due on the virtual clock: nothing is sent, each is cancelled.
    await drain(pipeline.emulators.queues.escalation, escalate);
    const [first, second] = await Promise.all(levels.map((level) => level.read({ waitMs: 500 })));
    expect([first?.length, second?.length]).toEqual([0, 0]);
    expect(escalated(alertId)).toEqual([]);
    expect(
      observations.filter((o) => o.type === "escalation-cancelled" && o.alertId === alertId),
    ).toHaveLength(1);
  }, 90_000);
});

describe("an alert nobody acknowledges", () => {
  it("escalates once per level on the virtual clock, every job delivered twice, each with a link that opens", async () => {
    const { alertId, email } = await publishedCrash();
    await drain(pipeline.emulators.queues.escalation, escalate, 2);
    const [first, second] = await Promise.all(
      levels.map((level) => level.read({ atLeast: 1, waitMs: 3000 })),
    );
    const ofThisAlert = (messages: InboxMessage[] = []) =>
      messages.filter((message) => message.attributes.alert_id?.value === alertId);
    const [mine1, mine2] = [ofThisAlert(first), ofThisAlert(second)];
    expect(mine1.map((message) => message.attributes.level?.value)).toEqual(["1"]);
    expect(mine2.map((message) => message.attributes.level?.value)).toEqual(["2"]);
    expect(mine1[0]?.subject).toMatch(/^Not acknowledged after 1 min \(escalation level 1 of 2\)/);
    expect(escalated(alertId)).toEqual([1, 2]);

    // The re-sent message links the same incident page, which opens.
    const link = linkIn(mine2[0]?.bodies?.email);
    expect(link === linkIn(email.bodies?.email), "the escalation carries the alert's link").toBe(true);
    const context = await localContext();
    const response = await context.request.get(link as string);
    expect(response.status()).toBe(200);
    await context.close();
  }, 60_000);
});

describe("logs", () => {
  // Last in this file: every line logged while the flows above ran.
  it("log every step at debug level, and no line holds a token of any link sent", () => {
    const lines = printed.join("").split("\n");
    for (const type of ["alert-published", "evidence-stored", "alert-acknowledged", "alert-escalated"])
      expect(
        lines.some((line) => line.includes(`"message":"${type}"`)),
        `${type} is logged`,
      ).toBe(true);
    expect(linksSent.size).toBe(2);
    for (const link of linksSent) {
      const token = link.slice(link.lastIndexOf("/") + 1);
      expect(lines.filter((line) => line.includes(token)).length, "lines with a token").toBe(0);
    }
  });
});
