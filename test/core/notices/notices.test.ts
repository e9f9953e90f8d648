import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { AlertPublisher } from "@fleet-alerts/core/alerts";
import { NOTICE_CLAIM_LEASE_MS, runNotices } from "@fleet-alerts/core/notices";
import {
  type groupSchema,
  instantOf,
  quietWindowAt,
  recipientId,
  utcHourIso,
} from "@fleet-alerts/core/routing";
import { keys } from "@fleet-alerts/core/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as z from "zod";
import { createNoticesHandler } from "../../../packages/functions/src/notices.js";
import { buildNoticesRuntime } from "../../../packages/functions/src/notices-runtime.js";
import { type Emulators, type InboxMessage, startEmulators } from "../../support/emulators.js";

const ZONE = "Europe/Berlin";
const BASE_URL = "https://alerts.example.com";
const MINUTE = 60_000;
let emulators: Emulators;

beforeAll(async () => {
  emulators = await startEmulators({ subscribeInbox: false });
});
afterAll(() => emulators?.close());

const berlin = (date: string, time: string) => instantOf(ZONE, date, time);
const put = (item: Record<string, unknown>) =>
  emulators.clients.documents.send(new PutCommand({ TableName: emulators.tableName, Item: item }));

/** The notices function's environment for these groups. */
async function envOf(groups: z.input<typeof groupSchema>[]) {
  const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-groups-"));
  const file = join(folder, "groups.json");
  await writeFile(file, JSON.stringify({ groups }));
  return {
    ...emulators.env(),
    GROUPS_FILE: file,
    FLEET_TIME_ZONE: ZONE,
    PUBLIC_BASE_URL: BASE_URL,
    SHARE_LINK_SECRET: "s".repeat(40),
  };
}

/** The business clock (what notices say, when they are due) and the wall clock claims are timed on. */
interface Clocks {
  nowMs: number;
  wallMs?: number;
}

/** The notices function's dependencies for these groups, on clocks the test sets. */
async function runtime(groups: z.input<typeof groupSchema>[], clock: Clocks) {
  clock.wallMs ??= Date.parse("2027-01-01T00:00:00Z");
  return buildNoticesRuntime(await envOf(groups), {
    now: () => clock.nowMs,
    wallClock: () => clock.wallMs as number,
  });
}

/** A topic that dies once, as a run would between its claim and its publish; then the real one. */
function crashingOnce(publisher: AlertPublisher): AlertPublisher {
  let crashed = false;
  return {
    publish: (messages) => {
      if (crashed) return publisher.publish(messages);
      crashed = true;
      return Promise.reject(new Error("crashed between the claim and the publish"));
    },
  };
}

const noticeIdOf = (message: InboxMessage | undefined) => message?.attributes.notice_id?.value;

/** A queue subscribed as one recipient's subscription is: filtered on `to`. */
async function inboxOf(channel: "email" | "sms", address: string) {
  const { read } = await emulators.subscribeQueue({ to: [recipientId(channel, address)] });
  return {
    /** Everything that arrived, waiting for `atLeast` (none: a short look for strays). */
    read: (atLeast = 0): Promise<InboxMessage[]> => read({ atLeast, waitMs: atLeast ? 2_000 : 300 }),
  };
}

const emailOf = (message: InboxMessage | undefined) => message?.bodies?.email ?? "";

function heldItem(group: string, windowEndMs: number, serial: number, eventMs: number) {
  const alertId = `fleet-a:${serial}:overspeed`;
  const windowEndIso = new Date(windowEndMs).toISOString();
  return put({
    pk: keys.group(group),
    sk: keys.held(windowEndIso, alertId),
    group,
    alertId,
    account: "fleet-a",
    serialno: String(serial),
    ruleId: "overspeed",
    severity: "warning",
    deviceid: `dev-${serial}`,
    vehicleid: `B-XY ${serial}`,
    eventtime: new Date(eventMs).toISOString(),
    windowStart: new Date(windowEndMs - 7 * 3_600_000).toISOString(),
    windowEnd: windowEndIso,
    heldAt: new Date(eventMs).toISOString(),
    expiresAt: Math.floor(windowEndMs / 1000) + 8 * 86_400,
  });
}

describe("quiet-hour summaries", () => {
  it("spring forward (2026-03-29): a 7-hour window's held alerts go out once, after it ends", async () => {
    const group = {
      name: "night-spring",
      email: ["spring@example.com", "boss@example.com"],
      quietHours: { from: "22:00", to: "06:00" },
    };
    const window = quietWindowAt(
      { ...group.quietHours, holdBelow: "critical" },
      ZONE,
      berlin("2026-03-29", "01:00"),
    );
    expect(window && (window.endMs - window.startMs) / 3_600_000).toBe(7);
    const endMs = window?.endMs ?? 0;
    for (const [serial, time] of [
      [1, "23:10"],
      [2, "23:50"],
    ] as const)
      await heldItem(group.name, endMs, serial, berlin("2026-03-28", time));
    await heldItem(group.name, endMs, 3, berlin("2026-03-29", "03:30"));
    const inboxes = await Promise.all(group.email.map((address) => inboxOf("email", address)));
    const clock = { nowMs: berlin("2026-03-29", "05:59") };
    const deps = await runtime([group], clock);

    expect((await runNotices(deps)).quietSummaries).toBe(0);
    clock.nowMs = berlin("2026-03-29", "06:01"); // ended, still settling
    expect((await runNotices(deps)).quietSummaries).toBe(0);
    for (const inbox of inboxes) expect(await inbox.read()).toEqual([]);

    // Two runs at once (a schedule's retry beside the next): one sends.
    clock.nowMs = berlin("2026-03-29", "06:05");
    const runs = await Promise.all([runNotices(deps), runNotices(deps)]);
    expect(runs.map((run) => run.quietSummaries).sort()).toEqual([0, 1]);
    for (const inbox of inboxes) {
      const [message, ...rest] = await inbox.read(1);
      expect(rest).toEqual([]);
      expect(message?.attributes.kind?.value).toBe("quiet-summary");
      // The same id for every recipient's copy and every re-send: the group and the window's end.
      expect(noticeIdOf(message)).toBe(`quiet-summary:night-spring:${new Date(endMs).toISOString()}`);
      const email = emailOf(message);
      expect(email).toContain("2026-03-28 22:00 to 2026-03-29 06:00 (Europe/Berlin, 7 hours)");
      expect(email).toContain("2026-03-29 03:30  overspeed (warning)  vehicle B-XY 3 (device dev-3)");
      expect(email.match(/^- /gm)).toHaveLength(3);
      expect(email.match(new RegExp(`^  ${BASE_URL}/i/[A-Za-z0-9_-]{22}$`, "gm"))).toHaveLength(3);
    }
    clock.nowMs = berlin("2026-03-29", "07:00");
    expect(await runNotices(deps)).toMatchObject({ quietSummaries: 0, busy: 0 });
    for (const inbox of inboxes) expect(await inbox.read()).toEqual([]);
  });

  it("fall back (2026-10-25): a 9-hour window, a crash after the claim, then one summary after the wall clock's lease", async () => {
    const group = {
      name: "night-fall",
      email: ["fall@example.com"],
      quietHours: { from: "22:00", to: "06:00" },
    };
    const window = quietWindowAt(
      { ...group.quietHours, holdBelow: "critical" },
      ZONE,
      berlin("2026-10-25", "02:30"),
    );
    expect(window && (window.endMs - window.startMs) / 3_600_000).toBe(9);
    const endMs = window?.endMs ?? 0;
    for (const serial of [11, 12, 13]) await heldItem(group.name, endMs, serial, endMs - serial * MINUTE);
    const [inbox] = await Promise.all(group.email.map((address) => inboxOf("email", address)));
    const clock: Clocks = { nowMs: berlin("2026-10-25", "06:05") };
    const deps = await runtime([group], clock);

    // Claimed, then the run dies before the topic has the message.
    const crashing: AlertPublisher = { publish: () => Promise.reject(new Error("crashed")) };
    await expect(runNotices({ ...deps, publisher: crashing })).rejects.toThrow("1 notice task(s) failed");
    // The business clock runs hours on (as the local mode's does, 60 to 300 times faster), the wall
    // clock a minute: the crashed run's lease still holds.
    clock.nowMs += 6 * 60 * MINUTE;
    clock.wallMs = (clock.wallMs ?? 0) + MINUTE;
    expect(await runNotices(deps)).toMatchObject({ quietSummaries: 0, busy: 1 });
    expect(await inbox?.read()).toEqual([]);

    clock.wallMs += NOTICE_CLAIM_LEASE_MS; // lease over: taken over, sent once
    expect((await runNotices(deps)).quietSummaries).toBe(1);
    const messages = (await inbox?.read(1)) ?? [];
    expect(messages).toHaveLength(1);
    expect(noticeIdOf(messages[0])).toBe(`quiet-summary:night-fall:${new Date(endMs).toISOString()}`);
    expect(emailOf(messages[0])).toContain("(Europe/Berlin, 9 hours)");
    for (const serial of [11, 12, 13])
      expect(messages[0]?.bodies?.default).toContain(`fleet-a:${serial}:overspeed`);
    expect((await runNotices(deps)).quietSummaries).toBe(0);
    expect(await inbox?.read()).toEqual([]);
  });
});

/** An alert routed to `group` at `atMs`, and its record. */
async function routedAlert(
  group: string,
  atMs: number,
  serial: number,
  extra: { vehicle?: string; ruleId?: string; severity?: string; record?: Record<string, unknown> } = {},
) {
  const ruleId = extra.ruleId ?? "overspeed";
  const alertId = `fleet-b:${serial}:${ruleId}`;
  const facts = {
    alertId,
    account: "fleet-b",
    serialno: String(serial),
    ruleId,
    severity: extra.severity ?? "warning",
    deviceid: `dev-${serial % 3}`,
    eventtime: new Date(atMs - MINUTE).toISOString(),
  };
  await put({
    pk: keys.group(group),
    sk: keys.routed(new Date(atMs).toISOString(), alertId),
    group,
    ...facts,
    ...(extra.vehicle && { vehicleid: extra.vehicle }),
    routedAt: new Date(atMs).toISOString(),
    held: false,
    expiresAt: Math.floor(atMs / 1000) + 8 * 86_400,
  });
  await put({
    pk: keys.account("fleet-b"),
    sk: keys.alert(BigInt(serial), ruleId),
    ...facts,
    appdevid: 1,
    status: "published",
    createdAt: new Date(atMs).toISOString(),
    ...extra.record,
  });
}

describe("daily digests", () => {
  it("2026-03-29 at 07:30 covers the 23 hours before, and two runs at once send it once", async () => {
    const group = { name: "depot-spring", email: ["digest@example.com"], digest: { at: "07:30" } };
    const fromMs = berlin("2026-03-28", "07:30");
    const toMs = berlin("2026-03-29", "07:30");
    expect((toMs - fromMs) / 3_600_000).toBe(23);
    await routedAlert(group.name, fromMs - 1, 100); // the day before
    await routedAlert(group.name, fromMs, 101, { vehicle: "Van 1", record: { evidenceStatus: "stored" } });
    await routedAlert(group.name, fromMs + 3_600_000, 102, {
      vehicle: "Van 1",
      record: { evidenceStatus: "unavailable", acknowledgement: { by: "ops", atMs: fromMs } },
    });
    await routedAlert(group.name, toMs - 1, 103, {
      vehicle: "Van 2",
      ruleId: "harsh-brake",
      severity: "critical",
    });
    await routedAlert(group.name, toMs, 104); // the next day's
    const inbox = await inboxOf("email", group.email[0] as string);
    const clock = { nowMs: toMs + 3 * MINUTE };
    const deps = await runtime([group], clock);

    const runs = await Promise.all([runNotices(deps), runNotices(deps)]);
    expect(runs.map((run) => run.digests).sort()).toEqual([0, 1]);
    const [message, ...rest] = await inbox.read(1);
    expect(rest).toEqual([]);
    const email = emailOf(message);
    expect(email).toContain(
      "2026-03-28 07:30 to 2026-03-29 07:30 (Europe/Berlin, 23 hours: the clocks changed)",
    );
    expect(email).toContain("3 alerts.");
    expect(email).toContain("  overspeed (warning): 2\n  harsh-brake (critical): 1");
    expect(email).toContain("  Van 1: 2\n  Van 2: 1");
    expect(email).toContain("Evidence: 1 stored, 1 unavailable, 0 pending, 0 failed, 1 without evidence.");
    expect(email).toContain("Not acknowledged (2):");
    expect(email.match(new RegExp(`^  ${BASE_URL}/i/[A-Za-z0-9_-]{22}$`, "gm"))).toHaveLength(2);
    expect(noticeIdOf(message)).toBe("digest:depot-spring:2026-03-29");
    expect(JSON.parse(message?.bodies?.default ?? "{}")).toMatchObject({
      kind: "digest",
      date: "2026-03-29",
      total: 3,
      notAcknowledged: ["fleet-b:101:overspeed", "fleet-b:103:harsh-brake"],
    });
    clock.nowMs += 30 * MINUTE;
    expect((await runNotices(deps)).digests).toBe(0);
    expect(await inbox.read()).toEqual([]);
  });

  it("2026-10-25 at 07:30 covers 25 hours; a day without alerts still gets its digest", async () => {
    const group = { name: "depot-fall", email: ["fall-digest@example.com"], digest: { at: "07:30" } };
    const fromMs = berlin("2026-10-24", "07:30");
    const toMs = berlin("2026-10-25", "07:30");
    expect((toMs - fromMs) / 3_600_000).toBe(25);
    const inbox = await inboxOf("email", group.email[0] as string);
    const clock = { nowMs: toMs + 4 * MINUTE };
    const deps = await runtime([group], clock);
    expect((await runNotices(deps)).digests).toBe(1);
    const [message] = await inbox.read(1);
    expect(emailOf(message)).toContain("(Europe/Berlin, 25 hours: the clocks changed)");
    expect(emailOf(message)).toContain("No alerts in this period.");
    await routedAlert(group.name, fromMs, 200); // too late for a digest already sent
    expect((await runNotices(deps)).digests).toBe(0);
    expect(await inbox.read()).toEqual([]);
  });

  it("a run that died between the claim and the publish: nothing within the wall clock's lease, then one digest", async () => {
    const group = { name: "depot-crash", email: ["crash-digest@example.com"], digest: { at: "07:30" } };
    const toMs = berlin("2026-06-02", "07:30");
    await routedAlert(group.name, toMs - 3_600_000, 300);
    const inbox = await inboxOf("email", group.email[0] as string);
    const clock: Clocks = { nowMs: toMs + 3 * MINUTE };
    const deps = await runtime([group], clock);
    await expect(runNotices({ ...deps, publisher: crashingOnce(deps.publisher) })).rejects.toThrow(
      "crashed between the claim and the publish",
    );
    clock.nowMs += 4 * 60 * MINUTE; // the business clock hours on, the wall clock not past the lease
    clock.wallMs = (clock.wallMs ?? 0) + NOTICE_CLAIM_LEASE_MS - 1;
    expect(await runNotices(deps)).toMatchObject({ digests: 0, busy: 1 });
    expect(await inbox.read()).toEqual([]);
    clock.wallMs += 1;
    expect((await runNotices(deps)).digests).toBe(1);
    const [message, ...rest] = await inbox.read(1);
    expect(rest).toEqual([]);
    expect(noticeIdOf(message)).toBe("digest:depot-crash:2026-06-02");
    expect(JSON.parse(message?.bodies?.default ?? "{}")).toMatchObject({ total: 1 });
    expect((await runNotices(deps)).digests).toBe(0);
  });
});

describe("SMS summaries", () => {
  it("one SMS per recipient and capped hour, in the recipient's local time, once", async () => {
    const number = "+4915100000001";
    const group = { name: "sms-group", email: ["sms-group@example.com"], sms: [number] };
    const rid = recipientId("sms", number);
    const hourMs = Date.parse("2026-03-29T11:00:00Z");
    const ids = (from: number, n: number) =>
      new Set(Array.from({ length: n }, (_, i) => `fleet-c:${from + i}:x`));
    await put({
      pk: keys.recipient(rid),
      sk: keys.smsHour(utcHourIso(hourMs)),
      hour: utcHourIso(hourMs),
      expiresAt: Math.floor(hourMs / 1000) + 2 * 86_400,
      texted: ids(0, 10),
      capped: ids(10, 7),
    });
    await put({
      pk: keys.recipient(rid),
      sk: keys.smsHour(utcHourIso(hourMs - 3_600_000)),
      hour: utcHourIso(hourMs - 3_600_000),
      expiresAt: Math.floor(hourMs / 1000) + 2 * 86_400,
      texted: ids(20, 2),
    });
    const inbox = await inboxOf("sms", number);
    const clock = { nowMs: hourMs + 3_600_000 + MINUTE }; // ended, still settling
    const deps = await runtime([group], clock);
    expect((await runNotices(deps)).smsSummaries).toBe(0);

    clock.nowMs += 2 * MINUTE;
    const runs = await Promise.all([runNotices(deps), runNotices(deps)]);
    expect(runs.map((run) => run.smsSummaries).sort()).toEqual([0, 1]);
    const [message, ...rest] = await inbox.read(1);
    expect(rest).toEqual([]);
    expect(message?.attributes).toMatchObject({
      kind: { value: "sms-summary" },
      to: { value: rid },
      // Per recipient with `to`; the id itself names the hour, never the number.
      notice_id: { value: `sms-summary:${utcHourIso(hourMs)}` },
    });
    const sms = message?.bodies?.sms ?? "";
    expect(sms).toBe(
      "fleet-alerts: 7 more alerts 13:00-14:00 not texted (SMS limit per hour). See your email.",
    );
    expect(sms.length).toBeLessThanOrEqual(160);
    clock.nowMs += 60 * MINUTE;
    expect((await runNotices(deps)).smsSummaries).toBe(0);
    expect(await inbox.read()).toEqual([]);
  });

  it("a run that died between the claim and the publish: nothing within the wall clock's lease, then one SMS", async () => {
    const number = "+4915100000002";
    const group = { name: "sms-crash", email: ["sms-crash@example.com"], sms: [number] };
    const rid = recipientId("sms", number);
    const hourMs = Date.parse("2026-06-02T08:00:00Z");
    await put({
      pk: keys.recipient(rid),
      sk: keys.smsHour(utcHourIso(hourMs)),
      hour: utcHourIso(hourMs),
      expiresAt: Math.floor(hourMs / 1000) + 2 * 86_400,
      capped: new Set(["fleet-c:1:x", "fleet-c:2:x"]),
    });
    const inbox = await inboxOf("sms", number);
    const clock: Clocks = { nowMs: hourMs + 3_600_000 + 3 * MINUTE };
    const deps = await runtime([group], clock);
    await expect(runNotices({ ...deps, publisher: crashingOnce(deps.publisher) })).rejects.toThrow(
      "crashed between the claim and the publish",
    );
    clock.nowMs += 30 * MINUTE;
    clock.wallMs = (clock.wallMs ?? 0) + MINUTE;
    expect(await runNotices(deps)).toMatchObject({ smsSummaries: 0, busy: 1 });
    expect(await inbox.read()).toEqual([]);
    clock.wallMs += NOTICE_CLAIM_LEASE_MS;
    expect((await runNotices(deps)).smsSummaries).toBe(1);
    const [message, ...rest] = await inbox.read(1);
    expect(rest).toEqual([]);
    expect(message?.bodies?.sms).toContain("2 more alerts 10:00-11:00 not texted");
    expect((await runNotices(deps)).smsSummaries).toBe(0);
  });
});

describe("the handler", () => {
  it("builds core's run from its environment and reports counts only", async () => {
    const group = { name: "handler-group", email: ["handler@example.com"], digest: { at: "08:00" } };
    const inbox = await inboxOf("email", group.email[0] as string);
    const lines: Record<string, unknown>[] = [];
    const log = (_: string, attributes: Record<string, unknown>) => lines.push(attributes);
    const handler = createNoticesHandler(await envOf([group]), {
      now: () => berlin("2026-06-01", "08:05"),
      logger: { info: log, warn: log, error: log },
    });
    const summary = { quietSummaries: 0, digests: 1, smsSummaries: 0, busy: 0, setAsideTold: 0 };
    expect(await handler({}, {})).toEqual(summary);
    expect(lines).toEqual([summary]);
    expect(emailOf((await inbox.read(1))[0])).toContain(
      "2026-05-31 08:00 to 2026-06-01 08:00 (Europe/Berlin, 24 hours)",
    );
  });
});
