import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import {
  DIGEST_MAX_LISTED,
  DIGEST_PAGE_ITEMS,
  QUIET_SUMMARY_MAX_LISTED,
  runNotices,
  SMS_SUMMARY_MAX_LISTED,
} from "@fleet-alerts/core/notices";
import { type groupSchema, instantOf, recipientId, utcHourIso } from "@fleet-alerts/core/routing";
import { keys } from "@fleet-alerts/core/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as z from "zod";
import { buildNoticesRuntime } from "../../../packages/functions/src/notices-runtime.js";
import { type Emulators, type InboxMessage, startEmulators } from "../../support/emulators.js";
import { recordTableReads } from "../../support/table-reads.js";

// A night or a day of far more alerts than a notice lists: each notice lists the oldest few, counts
// them all, and is built from reads of a bounded size (shown on the emulator's real answers).

const ZONE = "Europe/Berlin";
const BASE_URL = "https://alerts.example.com";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MANY = 250;
let emulators: Emulators;

beforeAll(async () => {
  emulators = await startEmulators({ subscribeInbox: false });
});
afterAll(() => emulators?.close());

const berlin = (date: string, time: string) => instantOf(ZONE, date, time);
const put = (item: Record<string, unknown>) =>
  emulators.clients.documents.send(new PutCommand({ TableName: emulators.tableName, Item: item }));

/** The notices run for this one group, on a clock the test sets, with every table read recorded. */
async function noticesOf(group: z.input<typeof groupSchema>, clock: { nowMs: number }) {
  const file = join(await mkdtemp(join(tmpdir(), "fleet-alerts-groups-")), "groups.json");
  await writeFile(file, JSON.stringify({ groups: [group] }));
  const deps = await buildNoticesRuntime(
    {
      ...emulators.env(),
      GROUPS_FILE: file,
      FLEET_TIME_ZONE: ZONE,
      PUBLIC_BASE_URL: BASE_URL,
      SHARE_LINK_SECRET: "s".repeat(40),
    },
    { now: () => clock.nowMs },
  );
  return { deps, reads: recordTableReads(deps.table.documents) };
}

/** The messages `address` receives while `sent` runs: exactly `count` of them. */
async function messagesTo(
  address: string,
  count: number,
  sent: () => Promise<unknown>,
  channel: "email" | "sms" = "email",
): Promise<InboxMessage[]> {
  const { read } = await emulators.subscribeQueue({ to: [recipientId(channel, address)] });
  await sent();
  const messages = await read({ atLeast: count, waitMs: 2_000 });
  expect(messages).toHaveLength(count);
  return messages;
}

const linesStarting = (text: string, start: string) =>
  text.split("\n").filter((line) => line.startsWith(start));

/** Serial numbers 1..n, in an order that is neither their event times' nor their keys'. */
const shuffled = (n: number) =>
  Array.from({ length: n }, (_, index) => index + 1).sort((a, b) => ((a * 37) % n) - ((b * 37) % n));

const facts = (account: string, serial: number, eventMs: number) => ({
  alertId: `${account}:${serial}:overspeed`,
  account,
  serialno: String(serial),
  ruleId: "overspeed",
  severity: "warning",
  deviceid: `dev-${serial % 40}`,
  vehicleid: `Van ${serial % 40}`,
  eventtime: new Date(eventMs).toISOString(),
});

describe("a quiet-hour summary of a night with many held alerts", () => {
  it(`lists the oldest ${QUIET_SUMMARY_MAX_LISTED}, counts all ${MANY}, and finds each window with a one-item read`, async () => {
    const group = {
      name: "bounds-night",
      email: ["night@example.com"],
      quietHours: { from: "22:00", to: "06:00" },
    };
    const ends = [berlin("2026-05-11", "06:00"), berlin("2026-05-12", "06:00")];
    const hold = (windowEndMs: number, serial: number, eventMs: number) =>
      put({
        pk: keys.group(group.name),
        sk: keys.held(new Date(windowEndMs).toISOString(), `bounds-q:${serial}:overspeed`),
        group: group.name,
        ...facts("bounds-q", serial, eventMs),
        windowStart: new Date(windowEndMs - 8 * HOUR).toISOString(),
        windowEnd: new Date(windowEndMs).toISOString(),
        heldAt: new Date(eventMs).toISOString(),
        expiresAt: Math.floor(windowEndMs / 1000) + 8 * 86_400,
      });
    await Promise.all(
      [1001, 1002].map((serial) => hold(ends[0] as number, serial, (ends[0] as number) - HOUR)),
    );
    // The later a serial, the earlier its event: the oldest are not the first keys.
    const lastEnd = ends[1] as number;
    await Promise.all(shuffled(MANY).map((serial) => hold(lastEnd, serial, lastEnd - serial * MINUTE)));
    const clock = { nowMs: lastEnd + 5 * MINUTE };
    const { deps, reads } = await noticesOf(group, clock);

    const messages = await messagesTo("night@example.com", 2, async () => {
      expect((await runNotices(deps)).quietSummaries).toBe(2);
    });

    const message = messages.find((sent) => sent.subject?.includes(`${MANY} alerts`)) as InboxMessage;
    const email = message.bodies?.email ?? "";
    expect(message.subject).toBe(`Quiet hours: ${MANY} alerts held for bounds-night`);
    expect(linesStarting(email, "- ")).toHaveLength(QUIET_SUMMARY_MAX_LISTED);
    expect(linesStarting(email, `  ${BASE_URL}/i/`)).toHaveLength(QUIET_SUMMARY_MAX_LISTED);
    expect(email).toContain(`  ... and ${MANY - QUIET_SUMMARY_MAX_LISTED} more.`);
    const body = JSON.parse(message.bodies?.default ?? "{}");
    expect(body.total).toBe(MANY);
    const oldest = Array.from({ length: QUIET_SUMMARY_MAX_LISTED }, (_, index) => MANY - index);
    expect(body.alerts).toEqual(oldest.map((serial) => `bounds-q:${serial}:overspeed`));

    // Two windows: a one-item read finds each, and one more finds nothing after the last.
    const windowReads = reads.filter((read) => read.command === "QueryCommand" && read.asked === 1);
    expect(windowReads.map((read) => read.items)).toEqual([1, 1, 0]);
  });
});

describe("a daily digest of a day with many alerts", () => {
  it(`counts every alert, lists the oldest ${DIGEST_MAX_LISTED} unacknowledged, and reads a page of ${DIGEST_PAGE_ITEMS} at a time without the records' messages`, async () => {
    const group = { name: "bounds-day", email: ["day@example.com"], digest: { at: "07:30" } };
    const fromMs = berlin("2026-05-12", "07:30");
    // A record's rendered message is kilobytes: the digest must not read it.
    const message = JSON.stringify({ email: "x".repeat(20_000) });
    await Promise.all(
      shuffled(MANY).map(async (serial) => {
        const routedMs = fromMs + serial * MINUTE;
        const alert = facts("bounds-d", serial, fromMs - serial * MINUTE);
        await put({
          pk: keys.group(group.name),
          sk: keys.routed(new Date(routedMs).toISOString(), alert.alertId),
          group: group.name,
          ...alert,
          routedAt: new Date(routedMs).toISOString(),
          held: false,
          expiresAt: Math.floor(routedMs / 1000) + 8 * 86_400,
        });
        await put({
          pk: keys.account("bounds-d"),
          sk: keys.alert(BigInt(serial), "overspeed"),
          ...alert,
          appdevid: 1,
          status: "published",
          createdAt: new Date(routedMs).toISOString(),
          message,
          evidenceStatus: serial % 2 === 0 ? "stored" : "pending",
          ...(serial % 5 === 0 && { acknowledgement: { by: "ops", atMs: routedMs } }),
        });
      }),
    );
    const clock = { nowMs: berlin("2026-05-13", "07:35") };
    const { deps, reads } = await noticesOf(group, clock);

    const [sent] = await messagesTo("day@example.com", 1, async () => {
      expect((await runNotices(deps)).digests).toBe(1);
    });

    const email = sent?.bodies?.email ?? "";
    const notAcknowledged = MANY - MANY / 5;
    expect(email).toContain(`${MANY} alerts.`);
    expect(email).toContain(`Evidence: ${MANY / 2} stored, 0 unavailable, ${MANY / 2} pending, 0 failed`);
    expect(email).toContain(`Not acknowledged (${notAcknowledged}):`);
    expect(linesStarting(email, "- ")).toHaveLength(DIGEST_MAX_LISTED);
    expect(email).toContain(`  ... and ${notAcknowledged - DIGEST_MAX_LISTED} more.`);
    const body = JSON.parse(sent?.bodies?.default ?? "{}");
    expect(body).toMatchObject({ total: MANY, notAcknowledgedTotal: notAcknowledged });
    // The oldest events are the highest serials; every fifth was acknowledged.
    const oldest = Array.from({ length: MANY }, (_, index) => MANY - index)
      .filter((serial) => serial % 5 !== 0)
      .slice(0, DIGEST_MAX_LISTED);
    expect(body.notAcknowledged).toEqual(oldest.map((serial) => `bounds-d:${serial}:overspeed`));

    const pages = reads.filter((read) => read.command === "QueryCommand" && read.asked === DIGEST_PAGE_ITEMS);
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(MANY / DIGEST_PAGE_ITEMS));
    for (const page of pages) expect(page.items).toBeLessThanOrEqual(DIGEST_PAGE_ITEMS);
    const batchGets = reads.filter((read) => read.command === "BatchGetItemCommand");
    expect(batchGets.reduce((sum, read) => sum + read.items, 0)).toBe(MANY);
    for (const read of batchGets) {
      expect(read.asked).toBeLessThanOrEqual(DIGEST_PAGE_ITEMS);
      expect([...read.attributes].sort()).toEqual(["acknowledgement", "alertId", "evidenceStatus"]);
    }
  });
});

describe("an SMS summary of an hour with thousands of alerts not texted", () => {
  it(`says how many, and its body names ${SMS_SUMMARY_MAX_LISTED} of them: one SNS message whatever the hour held`, async () => {
    const number = "+4915100000077";
    const hourMs = Date.parse("2026-05-12T11:00:00Z");
    // About 300 KB of ids in the hour's item: listed whole, the body would be over SNS's 256 KB.
    const capped = new Set(
      Array.from({ length: 12_000 }, (_, index) => `bounds-s:${100_000 + index}:overspeed`),
    );
    await put({
      pk: keys.recipient(recipientId("sms", number)),
      sk: keys.smsHour(utcHourIso(hourMs)),
      hour: utcHourIso(hourMs),
      expiresAt: Math.floor(hourMs / 1000) + 2 * 86_400,
      capped,
    });
    const group = { name: "bounds-sms", email: ["sms@example.com"], sms: [number] };
    const { deps } = await noticesOf(group, { nowMs: hourMs + 63 * MINUTE });

    const [sent] = await messagesTo(
      number,
      1,
      async () => expect((await runNotices(deps)).smsSummaries).toBe(1),
      "sms",
    );

    expect(sent?.bodies?.sms).toContain(`${capped.size} more alerts`);
    const body = JSON.parse(sent?.bodies?.default ?? "{}");
    expect(body.notTextedTotal).toBe(capped.size);
    expect(body.notTexted).toHaveLength(SMS_SUMMARY_MAX_LISTED);
    for (const id of body.notTexted) expect(capped.has(id)).toBe(true);
  });
});
