import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { type AlertPublisher, AlertStore } from "@fleet-alerts/core/alerts";
import { evidenceJobSchema, evidencePrefix } from "@fleet-alerts/core/evidence";
import {
  NOTICE_CLAIM_LEASE_MS,
  NoticeClaims,
  StaleSummaryNotices,
  StaleSummaryStore,
} from "@fleet-alerts/core/notices";
import { pollAccount } from "@fleet-alerts/core/poller";
import { groupsFileSchema, recipientId, UNROUTED_RECIPIENT } from "@fleet-alerts/core/routing";
import { ShareStore } from "@fleet-alerts/core/share";
import { getItem, type TableRef } from "@fleet-alerts/core/store";
import type { SimEvent } from "@fleet-alerts/simulator";
import type { Context } from "aws-lambda";
import { afterEach, describe, expect, it } from "vitest";
import { createEvidenceHandler } from "../../../packages/functions/src/evidence.js";
import { receive } from "../../../packages/local/src/delivery.js";
import { sqsEvent } from "../../../packages/local/src/sqs-event.js";
import type { InboxMessage } from "../../support/emulators.js";
import {
  accountRuntime,
  alertsOf,
  drainInbox,
  type Pipeline,
  pollWithClock,
  startPipeline,
  virtualNow,
} from "./pipeline.js";

const MINUTE_MS = 60_000;
const RULES = [
  {
    id: "shock",
    events: [16],
    severity: "critical" as const,
    staleAfterSeconds: 3600,
    evidence: { channels: [1], secondsBefore: 10, secondsAfter: 10 },
  },
  { id: "speed", events: [13], severity: "warning" as const, staleAfterSeconds: 3600 },
  { id: "disk", events: [12], severity: "info" as const, staleAfterSeconds: 3600 },
];
/** Shocks go to two groups, speeding to one, disk errors to none (the ops' emails). */
const GROUPS = {
  groups: [
    { name: "safety", email: ["safety@example.com"], select: { rules: ["shock"] } },
    {
      name: "everyone",
      email: ["fleet@example.com", "depot@example.com"],
      select: { minSeverity: "warning" },
    },
  ],
};
const SAFETY = recipientId("email", "safety@example.com");
const FLEET = recipientId("email", "fleet@example.com");
const DEPOT = recipientId("email", "depot@example.com");
const BASE_URL = "https://alerts.example.com";

let pipeline: Pipeline | undefined;
afterEach(async () => {
  await pipeline?.close();
  pipeline = undefined;
});

async function started(): Promise<Pipeline> {
  pipeline = await startPipeline({
    rules: RULES,
    groups: GROUPS,
    simulator: { seed: 11, devices: 4, historyHours: 2 },
    env: { PUBLIC_BASE_URL: BASE_URL, SHARE_LINK_SECRET: "s".repeat(32) },
  });
  expect(await pollWithClock(pipeline)).toMatchObject({ outcome: "started" });
  return pipeline;
}

function tableOf(pipeline: Pipeline): TableRef {
  return { documents: pipeline.emulators.clients.documents, tableName: pipeline.emulators.tableName };
}

/**
 * `count` events across the fleet's devices, a second apart from `minutesAgo` before the simulator's
 * now, of `appdevid` (or of each code in turn).
 */
function inject(
  pipeline: Pipeline,
  appdevid: number | number[],
  count: number,
  minutesAgo: number,
): SimEvent[] {
  const { control } = pipeline.simulator;
  const devices = control.devices().map((device) => device.deviceid);
  const codes = [appdevid].flat();
  const nowMs = control.now().getTime();
  return Array.from({ length: count }, (_, index) =>
    control.injectEvent({
      appdevid: codes[index % codes.length] as number,
      deviceid: devices[index % devices.length] as string,
      eventtime: new Date(nowMs - minutesAgo * MINUTE_MS + index * 1000),
    }),
  );
}

interface SummaryBody {
  kind: string;
  account: string;
  group: string | null;
  summary: number;
  total: number;
  byRule: Record<string, number>;
  listed: string[];
}

/** The stale summaries among messages, by recipient: their body, email and subject. */
function summariesOf(messages: readonly InboxMessage[]) {
  return messages
    .filter((message) => message.attributes.kind?.value === "stale-summary")
    .map((message) => ({
      to: message.attributes.to?.value as string,
      body: JSON.parse(message.bodies?.default ?? message.raw) as SummaryBody,
      email: message.bodies?.email ?? "",
      subject: message.subject ?? "",
    }))
    .sort((a, b) => (a.to < b.to ? -1 : 1));
}

/**
 * One poll that stops at its deadline once two chunks (of five events) have moved the cursor (the
 * third, recorded meanwhile, goes out before it stops), as a run of a catch-up too long for one
 * invocation does; the last one catches up.
 */
function shortRun(pipeline: Pipeline) {
  let advanced = 0;
  return pollWithClock(pipeline, "north", {
    chunkEvents: 5,
    deadlineMs: 1,
    wallClock: () => (advanced >= 2 ? 1 : 0),
    checkpoint: (step) => {
      if (step === "cursor-advanced") advanced++;
    },
  });
}

describe("the stale summary of a catch-up", () => {
  it("tells each group once, when the catch-up of several runs is over: counts per rule, 20 links, and how many more", async () => {
    const pipeline = await started();
    // A backlog after an outage: seven hours old, stale. Then two events of the last minutes.
    const shocks = inject(pipeline, 16, 25, 7 * 60);
    inject(pipeline, 13, 6, 7 * 60 - 1);
    inject(pipeline, 12, 2, 7 * 60 - 2);
    const fresh = inject(pipeline, 16, 2, 3);

    const outcomes: string[] = [];
    const seen: InboxMessage[] = [];
    for (let run = 0; run < 10; run++) {
      const summary = await shortRun(pipeline);
      outcomes.push(summary.outcome);
      const messages = await drainInbox(pipeline.emulators);
      seen.push(...messages);
      if (summary.outcome === "caught-up") {
        expect(summariesOf(messages).length).toBeGreaterThan(0);
        break;
      }
      expect(summariesOf(messages), `run ${run}: before the catch-up is over`).toEqual([]);
    }
    expect(outcomes.length).toBeGreaterThanOrEqual(3);
    expect(outcomes.at(-1)).toBe("caught-up");
    expect(outcomes.slice(0, -1).every((outcome) => outcome === "deadline")).toBe(true);

    // Only the fresh alerts went out as alerts (one message per recipient).
    const published = new Set(alertsOf(seen).map((alert) => alert.key));
    expect([...published].sort()).toEqual(fresh.map((event) => `${event.serialno}/shock`).sort());

    const sent = summariesOf(seen);
    expect(sent.map((summary) => summary.to)).toEqual([DEPOT, FLEET, SAFETY, UNROUTED_RECIPIENT].sort());
    const by = (to: string) => sent.find((summary) => summary.to === to);
    expect(by(SAFETY)?.body).toMatchObject({
      kind: "stale-summary",
      account: "north",
      group: "safety",
      summary: 1,
      total: 25,
      byRule: { shock: 25 },
    });
    expect(by(FLEET)?.body).toMatchObject({ group: "everyone", total: 31, byRule: { shock: 25, speed: 6 } });
    expect(by(DEPOT)?.body).toEqual(by(FLEET)?.body);
    expect(by(UNROUTED_RECIPIENT)?.body).toMatchObject({ group: null, total: 2, byRule: { disk: 2 } });

    // The most severe first, in event order: the first 20 shocks, for both groups that hear of them.
    const firstShocks = shocks.slice(0, 20).map((event) => `north:${event.serialno}:shock`);
    expect(by(SAFETY)?.body.listed).toEqual(firstShocks);
    expect(by(FLEET)?.body.listed).toEqual(firstShocks);
    const safety = by(SAFETY)?.email ?? "";
    expect(safety).toMatch(/^25 alerts of account north were not sent to group "safety"/);
    expect(safety).toContain("  shock: 25");
    expect(safety).toContain("... and 5 more.");
    expect(by(FLEET)?.email).toContain("... and 11 more.");
    expect(by(SAFETY)?.subject).toBe("Held back as stale: 25 alerts of account north for safety");

    // Each listed alert's link opens its incident page: granted when the summary went out.
    const links = [...safety.matchAll(/https:\/\/alerts\.example\.com\/i\/([A-Za-z0-9_-]{22})/g)];
    expect(links).toHaveLength(20);
    const shares = new ShareStore(tableOf(pipeline));
    const nowMs = pipeline.simulator.control.now().getTime();
    const granted = await Promise.all(links.map(([, token]) => shares.resolve(token as string, nowMs)));
    expect(granted.map((grant) => grant?.alertId)).toEqual(firstShocks);
    expect(by(UNROUTED_RECIPIENT)?.email.match(/\/i\//g)).toHaveLength(2);

    // Recorded stale, sent to no one; the next poll sends nothing again.
    const records = await new AlertStore(tableOf(pipeline)).inWindow("north", 0n, 10n ** 30n);
    expect(records.filter((record) => record.status === "stale")).toHaveLength(33);
    expect(await pollWithClock(pipeline)).toMatchObject({ outcome: "caught-up", eventsRead: 0 });
    expect(summariesOf(await drainInbox(pipeline.emulators))).toEqual([]);
    expect(pipeline.observations.filter((seen) => seen.type === "stale-summary-sent")).toEqual([
      expect.objectContaining({
        account: "north",
        summary: 1,
        group: "everyone",
        alerts: 31,
        byRule: { shock: 25, speed: 6 },
        recipients: 2,
      }),
      expect.objectContaining({ group: "safety", alerts: 25, recipients: 1 }),
      {
        type: "stale-summary-sent",
        account: "north",
        summary: 1,
        alerts: 2,
        byRule: { disk: 2 },
        recipients: 1,
      },
    ]);

    // A later catch-up has a summary of its own, of its own stale alerts only.
    inject(pipeline, 13, 1, 2 * 60);
    expect(await pollWithClock(pipeline)).toMatchObject({ outcome: "caught-up", stale: 1 });
    const next = summariesOf(await drainInbox(pipeline.emulators));
    expect(next.map((summary) => [summary.to, summary.body.summary, summary.body.byRule])).toEqual(
      [DEPOT, FLEET].sort().map((to) => [to, 2, { speed: 1 }]),
    );
  }, 60_000);

  it("costs a warm container's idle poll no read, and still goes out after the next catch-up", async () => {
    const pipeline = await started();
    const { settings, deps } = await accountRuntime(pipeline);
    const poll = () =>
      pollAccount(settings, { ...deps, now: virtualNow(pipeline) }, { deadlineMs: Number.POSITIVE_INFINITY });
    const requestsOf = async (polled: () => Promise<unknown>) => {
      const before = await pipeline.emulators.requestCounts();
      await polled();
      const after = await pipeline.emulators.requestCounts();
      return (operation: string) => (after[operation] ?? 0) - (before[operation] ?? 0);
    };
    const first = await requestsOf(poll); // looks, and finds nothing owed at this cursor
    const idle = await requestsOf(poll);
    expect(first("DynamoDB GetItem") - idle("DynamoDB GetItem")).toBe(1);
    expect(first("DynamoDB Query") - idle("DynamoDB Query")).toBe(1);

    inject(pipeline, 16, 2, 7 * 60);
    expect(await poll()).toMatchObject({ outcome: "caught-up", stale: 2 });
    const sent = summariesOf(await drainInbox(pipeline.emulators));
    expect(sent.map((summary) => [summary.to, summary.body.total])).toEqual(
      [
        [SAFETY, 2],
        [FLEET, 2],
        [DEPOT, 2],
      ].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
    );
  });

  it("sends nothing when nothing was stale", async () => {
    const pipeline = await started();
    inject(pipeline, 16, 3, 5);
    inject(pipeline, 13, 3, 5);
    expect(await pollWithClock(pipeline)).toMatchObject({
      outcome: "caught-up",
      stale: 0,
      alertsPublished: 6,
    });
    expect(summariesOf(await drainInbox(pipeline.emulators))).toEqual([]);
    const table = tableOf(pipeline);
    expect(await getItem(table, "ACCOUNT#north", "STALESUMMARY")).toBeUndefined();
    expect(pipeline.observations.filter((seen) => seen.type === "stale-summary-sent")).toEqual([]);
  });

  it("counts a chunk replayed after a crash once, at every step of its going out", async () => {
    const pipeline = await started();
    // Six chunks of ten, each with shocks (and their evidence jobs) and speeding.
    inject(pipeline, [16, 13], 60, 7 * 60);
    for (const step of ["alerts-published", "jobs-queued", "states-saved", "stale-noted"] as const) {
      let reached = 0;
      const crashing = pollWithClock(pipeline, "north", {
        chunkEvents: 10,
        checkpoint: (seen) => {
          // The second chunk crashes, the first having counted its stale alerts and moved the cursor.
          if (seen === step && ++reached === 2) throw new Error(`crash at ${seen}`);
        },
      });
      await expect(crashing).rejects.toThrow(`crash at ${step}`);
    }
    expect(await pollWithClock(pipeline, "north", { chunkEvents: 10 })).toMatchObject({
      outcome: "caught-up",
    });
    const sent = summariesOf(await drainInbox(pipeline.emulators));
    expect(sent.map((summary) => [summary.to, summary.body.total, summary.body.byRule])).toEqual(
      [
        [SAFETY, 30, { shock: 30 }],
        [FLEET, 60, { shock: 30, speed: 30 }],
        [DEPOT, 60, { shock: 30, speed: 30 }],
      ].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
    );
  }, 60_000);

  it("is not sent again after a crash right after it was sent, nor lost after a crash before", async () => {
    const pipeline = await started();
    inject(pipeline, 16, 3, 7 * 60);
    inject(pipeline, 13, 2, 7 * 60);
    const { deps } = await accountRuntime(pipeline);
    const table = tableOf(pipeline);
    let crashAfterMark = true;
    let crashBeforePublish = false;
    class CrashingClaims extends NoticeClaims {
      override async markSent(...args: Parameters<NoticeClaims["markSent"]>) {
        await super.markSent(...args);
        if (crashAfterMark) throw new Error("crash right after the summary was marked sent");
      }
    }
    // The poller's stale summaries, as the runtime builds them, but dying at the chosen point, and
    // with claims on a wall clock the test moves.
    const wall = { ms: Date.parse("2027-01-01T00:00:00Z") };
    const summaries = (claims: NoticeClaims, publisher: AlertPublisher) =>
      new StaleSummaryNotices({
        store: new StaleSummaryStore(table),
        claims,
        publisher,
        alerts: deps.alerts,
        groups: groupsFileSchema.parse(GROUPS),
        fleetTimeZone: "Europe/Berlin",
        observer: { observe: () => undefined },
        wallClock: () => wall.ms,
      });
    const crashing = summaries(new CrashingClaims(table), {
      publish: (messages) => {
        if (crashBeforePublish) throw new Error("crash between the claim and the publish");
        return deps.publisher.publish(messages);
      },
    });
    const healthy = { staleSummaries: summaries(new NoticeClaims(table), deps.publisher) };

    // Summary 1: the first group ("everyone") told, then the run dies before the next. The next
    // poll tells the other, and the first not again.
    expect(await pollWithClock(pipeline, "north", { staleSummaries: crashing })).toMatchObject({
      outcome: "caught-up",
    });
    const first = summariesOf(await drainInbox(pipeline.emulators));
    expect(first.map((summary) => summary.to)).toEqual([DEPOT, FLEET].sort());
    expect(await pollWithClock(pipeline)).toMatchObject({ outcome: "caught-up", eventsRead: 0 });
    const rest = summariesOf(await drainInbox(pipeline.emulators));
    expect(rest.map((summary) => summary.to)).toEqual([SAFETY]);
    expect(await getItem(table, "ACCOUNT#north", "STALESUMMARY")).toEqual(
      expect.not.objectContaining({ sending: expect.anything() }),
    );

    // Summary 2: the first group's notice claimed, then the run dies before publishing it. Within
    // the claim's lease the next poll leaves it (and tells the other group); after, a poll takes the
    // claim over and sends it, once.
    inject(pipeline, 16, 1, 7 * 60);
    crashAfterMark = false;
    crashBeforePublish = true;
    await pollWithClock(pipeline, "north", { staleSummaries: crashing });
    expect(summariesOf(await drainInbox(pipeline.emulators))).toEqual([]);
    // The business clock runs past the lease (as the local mode's does): the lease is the wall clock's.
    pipeline.simulator.control.advance(2 * NOTICE_CLAIM_LEASE_MS);
    wall.ms += MINUTE_MS;
    expect(await pollWithClock(pipeline, "north", healthy)).toMatchObject({ outcome: "caught-up" });
    const withinLease = summariesOf(await drainInbox(pipeline.emulators));
    expect(withinLease.map((summary) => [summary.to, summary.body.summary])).toEqual([[SAFETY, 2]]);
    wall.ms += NOTICE_CLAIM_LEASE_MS;
    await pollWithClock(pipeline, "north", healthy);
    await pollWithClock(pipeline, "north", healthy);
    const late = summariesOf(await drainInbox(pipeline.emulators)).filter(
      (summary) => summary.body.summary === 2,
    );
    expect(late.map((summary) => [summary.to, summary.body.total])).toEqual(
      [
        [DEPOT, 1],
        [FLEET, 1],
      ].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
    );
  }, 60_000);
});

describe("a stale summary owed when two polls meet", () => {
  it("is told once per group when two containers send what is owed at once, each message named by its notice", async () => {
    const pipeline = await started();
    inject(pipeline, 16, 2, 7 * 60);
    const { deps } = await accountRuntime(pipeline);
    const table = tableOf(pipeline);
    // The catch-up closes its summary, then dies before it claims a group's notice: owed.
    class DyingBeforeTheClaim extends NoticeClaims {
      override async claim(): Promise<boolean> {
        throw new Error("died after closing the summary, before any claim");
      }
    }
    const container = (claims: NoticeClaims) =>
      new StaleSummaryNotices({
        store: new StaleSummaryStore(table),
        claims,
        publisher: deps.publisher,
        alerts: deps.alerts,
        groups: groupsFileSchema.parse(GROUPS),
        fleetTimeZone: "Europe/Berlin",
        observer: { observe: () => undefined },
        wallClock: Date.now,
      });
    expect(
      await pollWithClock(pipeline, "north", { staleSummaries: container(new DyingBeforeTheClaim(table)) }),
    ).toMatchObject({ outcome: "caught-up", stale: 2 });
    expect(summariesOf(await drainInbox(pipeline.emulators))).toEqual([]);

    // Two polls that find nothing new, in two containers, tell what is owed at the same moment.
    const clock = { now: virtualNow(pipeline), pastDeadline: () => false };
    const cursor = (await deps.cursors.read("north")) as bigint;
    await Promise.all([
      container(new NoticeClaims(table)).sendOwed("north", cursor, clock),
      container(new NoticeClaims(table)).sendOwed("north", cursor, clock),
    ]);
    const messages = await drainInbox(pipeline.emulators);
    expect(summariesOf(messages).map((summary) => summary.to)).toEqual([DEPOT, FLEET, SAFETY].sort());
    // One id per group's notice of summary 1, whichever run (or re-send) carries it.
    expect(
      messages
        .filter((message) => message.attributes.kind?.value === "stale-summary")
        .map((message) => message.attributes.notice_id?.value)
        .sort(),
    ).toEqual([
      "stale-summary:north:1:everyone",
      "stale-summary:north:1:everyone",
      "stale-summary:north:1:safety",
    ]);
  }, 60_000);
});

describe("a stale alert's evidence", () => {
  it("is queued once and stored as a claim pack by the evidence function; the alert stays stale", async () => {
    const pipeline = await started();
    const [shock] = inject(pipeline, 16, 1, 90) as [SimEvent];
    expect(await pollWithClock(pipeline)).toMatchObject({ outcome: "caught-up", stale: 1, evidenceJobs: 1 });
    expect(await pollWithClock(pipeline)).toMatchObject({ evidenceJobs: 0 });

    const { sqs } = pipeline.emulators.clients;
    const queued = await receive(sqs, pipeline.emulators.queues.evidence);
    expect(queued).toHaveLength(1);
    const job = evidenceJobSchema.parse(JSON.parse(queued[0]?.Body as string));
    expect(job).toMatchObject({ alertId: `north:${shock.serialno}:shock`, incidentLink: false });

    const eventMs = Date.parse(job.eventtime);
    pipeline.simulator.control.setRecording(
      job.deviceid,
      new Date(eventMs - MINUTE_MS),
      new Date(eventMs + MINUTE_MS),
      1,
    );
    // Delivered twice, as SQS may: one claim pack.
    const body = JSON.stringify(job);
    const response = await createEvidenceHandler(pipeline.env)(
      sqsEvent([
        { MessageId: "m0", ReceiptHandle: "r0", Body: body },
        { MessageId: "m1", ReceiptHandle: "r1", Body: body },
      ]),
      {} as Context,
    );
    expect(response.batchItemFailures).toEqual([]);
    const prefix = evidencePrefix(job);
    const { Contents = [] } = await pipeline.emulators.clients.s3.send(
      new ListObjectsV2Command({ Bucket: pipeline.emulators.bucket, Prefix: prefix }),
    );
    const stored = Contents.map((object) => (object.Key as string).slice(prefix.length));
    expect(stored).toEqual(expect.arrayContaining(["data/ch1.mp4", "report.html", "tagmanifest-sha256.txt"]));
    expect(stored.filter((key) => key === "data/ch1.mp4")).toHaveLength(1);

    const record = await new AlertStore(tableOf(pipeline)).get("north", shock.serialno, "shock");
    expect(record).toMatchObject({ status: "stale", evidenceStatus: "stored" });
    // Its summary went to its groups; no alert and no evidence notice of it did.
    const messages = await drainInbox(pipeline.emulators);
    expect(messages.filter((message) => message.attributes.alert_id?.value === job.alertId)).toEqual([]);
    expect(summariesOf(messages).map((summary) => summary.body.listed)).toEqual([
      [job.alertId],
      [job.alertId],
      [job.alertId],
    ]);
  }, 60_000);
});
