import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Observation } from "@fleet-alerts/core";
import {
  type AlertRecord,
  AlertStore,
  deliverAlerts,
  handOn,
  newAlertRecord,
  RecordLedger,
  SnsAlertPublisher,
} from "@fleet-alerts/core/alerts";
import { runNotices } from "@fleet-alerts/core/notices";
import {
  DynamoRoutingItemStore,
  DynamoSmsCapStore,
  type GroupsFile,
  groupsFileSchema,
  heldItemSchema,
  Router,
  recipientId,
  recipientSubscriptions,
  routedItemSchema,
  smsHourItemSchema,
  UNROUTED_FILTER_POLICY,
} from "@fleet-alerts/core/routing";
import { parseRules, type Rule } from "@fleet-alerts/core/rules";
import { keys } from "@fleet-alerts/core/store";
import { webhookJobSchema } from "@fleet-alerts/core/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildNoticesRuntime } from "../../../packages/functions/src/notices-runtime.js";
import { type Emulators, type InboxMessage, startEmulators } from "../../support/emulators.js";
import { FakeJobQueue } from "../../support/fakes/queue.js";
import { fakeSetAside } from "../../support/fakes/set-aside.js";
import { eventAt, fleetDevice, INCIDENT_AT_EVENT } from "../alerts/fixtures.js";

// The alerts topic on the emulator with one SQS queue per recipient, subscribed with the filter
// policy infra/alerting.ts gives that recipient's email or SMS subscription, and the ops' queue on
// `unrouted`: what each queue receives is what that person would.

const rules = (parsed: ReturnType<typeof parseRules>): Rule[] => {
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.rules;
};
const [gsensor, speeding] = rules(
  parseRules({
    rules: [
      { id: "gsensor", events: ["GSensor"], severity: "critical" },
      { id: "speeding", events: ["OverSpeed"], severity: "warning" },
    ],
  }),
) as [Rule, Rule];

const SHARED = "shared@example.com";
const TEXTED = "+4915100000001";
const groupsFile: GroupsFile = groupsFileSchema.parse({
  groups: [
    { name: "north-depot", email: ["north@example.com", SHARED], select: { accounts: ["north"] } },
    // The same address in two groups, with different case: one recipient.
    {
      name: "crashes",
      email: ["SHARED@example.com", "safety@example.com"],
      sms: [TEXTED],
      select: { rules: ["gsensor"] },
      targets: ["erp"],
    },
    { name: "trucks", email: ["trucks@example.com"], select: { vehiclePattern: "TRK-\\d+" } },
    {
      name: "south-night",
      email: ["night@example.com"],
      select: { accounts: ["south"] },
      timeZone: "Europe/Berlin",
      quietHours: { from: "22:00", to: "06:00" },
    },
  ],
  targets: { erp: { kind: "webhook" } },
  smsCaps: { perRecipientPerHour: 2, perDevicePerHour: 50 },
});
const id = (address: string) => recipientId(address.startsWith("+") ? "sms" : "email", address);

// 2026-03-29 10:00 UTC is 12:00 in Berlin (summer time from 01:00 UTC that day); 23:30 UTC is 01:30.
const DAY_MS = Date.parse("2026-03-29T10:00:00.000Z");
const NIGHT_MS = Date.parse("2026-03-29T23:30:00.000Z");

let emulators: Emulators;
let alerts: AlertStore;
let table: { documents: Emulators["clients"]["documents"]; tableName: string };
const inboxes = new Map<string, (atLeast: number) => Promise<InboxMessage[]>>();
const observations: Observation[] = [];
const webhookQueue = new FakeJobQueue();
let deps: Parameters<typeof deliverAlerts>[1];

beforeAll(async () => {
  emulators = await startEmulators({ subscribeInbox: false });
  table = { documents: emulators.clients.documents, tableName: emulators.tableName };
  alerts = new AlertStore(table);
  const subscriptions = [
    ...recipientSubscriptions(groupsFile).map((sub) => [sub.recipientId, sub.filterPolicy] as const),
    ["ops", UNROUTED_FILTER_POLICY] as const,
  ];
  await Promise.all(
    subscriptions.map(async ([recipient, filterPolicy]) => {
      const { read } = await emulators.subscribeQueue(filterPolicy);
      inboxes.set(recipient, (atLeast) => read({ atLeast, waitMs: atLeast > 0 ? 3000 : 250 }));
    }),
  );
  deps = {
    alerts,
    publisher: new SnsAlertPublisher(emulators.clients.sns, emulators.topicArn),
    evidenceQueue: new FakeJobQueue(),
    webhookQueue,
    router: new Router(groupsFile, "UTC", {
      items: new DynamoRoutingItemStore(table),
      smsCaps: new DynamoSmsCapStore(table, groupsFile.smsCaps),
    }),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    observer: { observe: (observation) => void observations.push(observation) },
    now: () => DAY_MS,
    setAside: fakeSetAside({ observer: { observe: () => undefined }, logger: console, now: () => DAY_MS })
      .setAside,
  };
}, 20_000);
afterAll(() => emulators?.close());

let serial = 7_000_000n;
/** An alert recorded at `atMs`, as the poller records it, ready to deliver. */
async function recorded(
  account: string,
  rule: Rule,
  atMs: number,
  device: { deviceid?: string; vehicleid?: string } = {},
): Promise<AlertRecord> {
  serial += 1n;
  const deviceid = device.deviceid ?? "0012345678";
  const record = newAlertRecord({
    account,
    event: eventAt(new Date(atMs - 5000).toISOString(), { serialno: serial.toString(), deviceid }),
    rule,
    status: "pending",
    suppressedBefore: 0,
    device: fleetDevice({ deviceid, vehicleid: device.vehicleid ?? "VAN-7" }),
    incident: INCIDENT_AT_EVENT,
    fleetTimeZone: "Europe/Berlin",
  });
  await alerts.record(record, atMs);
  return (await alerts.get(account, record.serialno, rule.id)) as AlertRecord;
}

const counts = () => ({ alertsPublished: 0, alertsFailed: 0, evidenceJobs: 0 });
const ledger = () => new RecordLedger(alerts, { now: Date.now });

/** Every recipient's messages from now on, by recipient id ("ops" for the unrouted): their alert ids. */
async function received(expected: Record<string, number>): Promise<Record<string, string[]>> {
  const entries = await Promise.all(
    [...inboxes].map(async ([recipient, read]) => {
      const messages = [...(await read(expected[recipient] ?? 0)), ...(await read(0))];
      return [
        recipient,
        messages.map((message) => {
          expect(message.attributes.to?.value).toBe(recipient === "ops" ? "unrouted" : recipient);
          return (JSON.parse(message.bodies?.default ?? message.raw) as { alertId: string }).alertId;
        }),
      ] as const;
    }),
  );
  return Object.fromEntries(entries.filter(([, ids]) => ids.length > 0));
}

describe("routing over the alerts topic's recipient subscriptions", () => {
  it("sends each alert to exactly the recipients of the groups whose selectors match, once each", async () => {
    const north = await recorded("north", gsensor, DAY_MS, { vehicleid: "TRK-12" });
    const trucksOnly = await recorded("south", speeding, DAY_MS, { vehicleid: "TRK-3" });
    // "TRK-3x": the pattern must match the whole vehicle id.
    const nobody = await recorded("west", speeding, DAY_MS, { vehicleid: "TRK-3x" });
    const south = await recorded("south", speeding, DAY_MS);
    await deliverAlerts([north, trucksOnly, nobody, south], deps, counts(), ledger());

    expect(await received({ [id(SHARED)]: 1 })).toEqual({
      [id("north@example.com")]: [north.alertId],
      [id(SHARED)]: [north.alertId],
      [id("safety@example.com")]: [north.alertId],
      [id(TEXTED)]: [north.alertId],
      [id("trucks@example.com")]: [north.alertId, trucksOnly.alertId].sort(),
      [id("night@example.com")]: [trucksOnly.alertId, south.alertId].sort(),
      ops: [nobody.alertId],
    });
    const published = observations.filter((o) => o.type === "alert-published" && o.alertId === north.alertId);
    // And to how many on each channel: the route's own counts (the live view shows them).
    expect(published).toMatchObject([
      {
        groups: ["north-depot", "crashes", "trucks"],
        held: [],
        recipients: { email: 4, sms: 1, smsCapped: 0, targets: ["erp"] },
      },
    ]);
    const stored = (await alerts.get("north", north.serialno, "gsensor")) as AlertRecord;
    expect(stored.route).toEqual({
      groups: ["north-depot", "crashes", "trucks"],
      held: [],
      email: [id("north@example.com"), id(SHARED), id("safety@example.com"), id("trucks@example.com")],
      sms: [id(TEXTED)],
      smsCapped: [],
      targets: ["erp"],
    });

    // The route's webhook target gets one job, once.
    await handOn([stored], deps, counts(), ledger());
    await handOn(
      [(await alerts.get("north", north.serialno, "gsensor")) as AlertRecord],
      deps,
      counts(),
      ledger(),
    );
    const jobs = webhookQueue.sent.map((message) => webhookJobSchema.parse(JSON.parse(message.body)));
    expect(jobs).toMatchObject([{ alertId: north.alertId, targetId: "erp", account: "north" }]);
  }, 15_000);

  it("holds an alert below critical in a group's quiet hours, and sends a critical one", async () => {
    const held = await recorded("south", speeding, NIGHT_MS);
    const critical = await recorded("south", gsensor, NIGHT_MS, { deviceid: "0099999999" });
    await deliverAlerts([held, critical], deps, counts(), ledger());

    const got = await received({ [id("night@example.com")]: 1 });
    expect(got[id("night@example.com")]).toEqual([critical.alertId]);
    expect(Object.values(got).flat()).not.toContain(held.alertId);
    const stored = (await alerts.get("south", held.serialno, "speeding")) as AlertRecord;
    expect(stored).toMatchObject({
      status: "published",
      route: { groups: [], held: ["south-night"], email: [] },
    });

    const { Items = [] } = await table.documents.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": keys.group("south-night") },
      }),
    );
    const heldItems = Items.filter((item) => String(item.sk).startsWith("HELD#")).map((item) =>
      heldItemSchema.parse(item),
    );
    // 01:30 in Berlin: the window that began at 22:00 (20:00 UTC, summer time) ends at 06:00 (04:00 UTC).
    expect(heldItems).toEqual([
      expect.objectContaining({
        alertId: held.alertId,
        ruleId: "speeding",
        severity: "warning",
        vehicleid: "VAN-7",
        windowStart: "2026-03-29T20:00:00.000Z",
        windowEnd: "2026-03-30T04:00:00.000Z",
      }),
    ]);
    const routed = Items.filter((item) => String(item.sk).startsWith("ROUTED#")).map((item) =>
      routedItemSchema.parse(item),
    );
    expect(routed.filter((item) => [held.alertId, critical.alertId].includes(item.alertId))).toEqual([
      expect.objectContaining({ alertId: held.alertId, held: true }),
      expect.objectContaining({ alertId: critical.alertId, held: false }),
    ]);
  }, 15_000);

  it("texts at most N alerts per recipient and hour, then one summary SMS; every one of them still reaches email", async () => {
    const hourMs = Date.parse("2026-03-30T13:10:00.000Z");
    const three = [
      await recorded("north", gsensor, hourMs, { deviceid: "0011111111" }),
      await recorded("north", gsensor, hourMs + 60_000, { deviceid: "0022222222" }),
      await recorded("north", gsensor, hourMs + 120_000, { deviceid: "0033333333" }),
    ];
    // One at a time, as successive polls would; then the third again, as a replay would route it.
    for (const record of three) await deliverAlerts([record], deps, counts(), ledger());
    const got = await received({ [id(TEXTED)]: 2, [id("safety@example.com")]: 3 });
    expect(got[id(TEXTED)]).toEqual(
      three
        .slice(0, 2)
        .map((record) => record.alertId)
        .sort(),
    );
    expect(got[id("safety@example.com")]).toEqual(three.map((record) => record.alertId).sort());

    const third = (await alerts.get("north", (three[2] as AlertRecord).serialno, "gsensor")) as AlertRecord;
    expect(third.route).toMatchObject({ sms: [], smsCapped: [id(TEXTED)] });
    const { Item } = await table.documents.send(
      new GetCommand({
        TableName: table.tableName,
        Key: { pk: keys.recipient(id(TEXTED)), sk: keys.smsHour("2026-03-30T13:00:00.000Z") },
      }),
    );
    const hour = smsHourItemSchema.parse(Item);
    expect([...(hour.texted ?? [])].sort()).toEqual(
      three
        .slice(0, 2)
        .map((record) => record.alertId)
        .sort(),
    );
    expect([...(hour.capped ?? [])]).toEqual([third.alertId]);
    // Asked again (a replay routing the same alert), the store gives the same answer.
    expect(
      await deps.router.route({ ...third, serialno: "0", severity: "critical" }, hourMs + 120_000),
    ).toMatchObject({
      sms: [],
      smsCapped: [id(TEXTED)],
    });

    // After the hour, the notices function texts the capped recipient once: how many were not texted.
    const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-groups-"));
    const file = join(folder, "groups.json");
    await writeFile(file, JSON.stringify(groupsFile));
    const afterHourMs = Date.parse("2026-03-30T14:03:00.000Z");
    const notices = await buildNoticesRuntime(
      { ...emulators.env(), GROUPS_FILE: file, FLEET_TIME_ZONE: "UTC" },
      { now: () => afterHourMs },
    );
    expect((await runNotices(notices)).smsSummaries).toBe(1);
    expect((await runNotices(notices)).smsSummaries).toBe(0); // once
    const texts = await (inboxes.get(id(TEXTED)) as (atLeast: number) => Promise<InboxMessage[]>)(1);
    expect(texts.map((text) => text.attributes.kind?.value)).toEqual(["sms-summary"]);
    expect(texts[0]?.bodies?.sms).toMatch(/^fleet-alerts: 1 more alert 13:00-14:00 not texted/);
  }, 20_000);
});
