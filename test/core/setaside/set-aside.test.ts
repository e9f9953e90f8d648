import {
  type OpsChannel,
  SET_ASIDE_TELL_LEASE_MS,
  SetAside,
  type SetAsideEntry,
  type SetAsideRecords,
  SetAsideStore,
  SnsOpsChannel,
  setAsideNotice,
} from "@fleet-alerts/core/setaside";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNoticesHandler } from "../../../packages/functions/src/notices.js";
import { type Emulators, type InboxMessage, startEmulators } from "../../support/emulators.js";

// Set-aside notices to ops on the emulators: the real store and ops topic, and the notices
// function's sweep through its handler. Claims are timed on a wall clock each test moves.
let emulators: Emulators;
let store: SetAsideStore;
let ops: SnsOpsChannel;
let opsInbox: Awaited<ReturnType<Emulators["subscribeQueue"]>>;
beforeAll(async () => {
  emulators = await startEmulators({ subscribeInbox: false });
  store = new SetAsideStore({ documents: emulators.clients.documents, tableName: emulators.tableName });
  ops = new SnsOpsChannel(emulators.clients.sns, emulators.opsTopicArn);
  opsInbox = await emulators.subscribeQueue(undefined, emulators.opsTopicArn);
});
afterAll(() => emulators.close());

const BUSINESS_MS = Date.parse("2026-03-29T01:00:00Z");
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let serial = 100;
/** Entries of an account the test has to itself, so that the sweep of one test sees none of another's. */
function entriesOf(account: string, count: number): SetAsideEntry[] {
  return Array.from({ length: count }, () => {
    serial += 1;
    return {
      account,
      serialno: String(serial),
      deviceid: "D1",
      ruleId: "crash",
      alertId: `${account}:${serial}:crash`,
      step: "evidence-job" as const,
      reason: "InvalidMessageContents: refused",
    };
  });
}

/** A SetAside on the emulators with its own wall clock; `records` and `ops` may be seams. */
function setAsideOn(wall: { ms: number }, seams: { records?: SetAsideRecords; ops?: OpsChannel } = {}) {
  return new SetAside({
    records: seams.records ?? store,
    ops: seams.ops ?? ops,
    observer: { observe: () => undefined },
    logger: silent,
    now: () => BUSINESS_MS,
    wallClock: () => wall.ms,
  });
}

/** The notices function as deployed without a groups file: it only sweeps, every account of the stage. */
function sweepHandler(accounts: string[], wall: { ms: number }) {
  return createNoticesHandler(
    {
      ...emulators.env(),
      DEVICE_CLOUD_ACCOUNTS: JSON.stringify(accounts.map((id) => ({ id, baseUrl: "http://127.0.0.1:9" }))),
    },
    // The business clock far ahead, as the local mode's runs: the lease is the wall clock's.
    { now: () => BUSINESS_MS + 86_400_000, wallClock: () => wall.ms, logger: silent },
  );
}

/** Every entry line of the ops notices read (each entry once per notice that lists it). */
const listedIn = (notices: readonly InboxMessage[]) =>
  notices.flatMap((notice) => notice.raw.split("\n").filter((line) => line.startsWith("- ")));

const readOps = (atLeast = 0) => opsInbox.read({ atLeast, waitMs: atLeast ? 2_000 : 300 });

describe("set-aside notices to ops", () => {
  it("tell each entry once when two puts of the same entries run at once", async () => {
    const entries = entriesOf("at-once", 3);
    const wall = { ms: Date.parse("2027-01-01T00:00:00Z") };
    await Promise.all([setAsideOn(wall).put(entries), setAsideOn(wall).put(entries)]);
    const notices = await readOps(1);
    expect(listedIn([...notices, ...(await readOps())]).sort()).toEqual(
      entries.map((entry) => expect.stringContaining(`- ${entry.alertId},`)),
    );
    expect(listedIn(notices)).toHaveLength(3);
    expect((await store.list("at-once", 10)).every((stored) => stored.toldAtMs !== undefined)).toBe(true);
  });

  it("after a death between the claim and the tell: nothing within the wall clock's lease, then the sweep tells once", async () => {
    const entries = entriesOf("crashed", 2);
    const wall = { ms: Date.parse("2027-01-01T00:00:00Z") };
    const dying: OpsChannel = {
      tell: () => Promise.reject(new Error("died between the claim and the tell")),
    };
    await expect(setAsideOn(wall, { ops: dying }).put(entries)).rejects.toThrow("died between");

    // A replay's put, and the sweep, while the claim is live: nothing told.
    wall.ms += 60_000;
    await setAsideOn(wall).put(entries);
    expect(await sweepHandler(["crashed"], wall)({}, {})).toMatchObject({ setAsideTold: 0 });
    expect(await readOps()).toEqual([]);

    // Past the lease: the sweep takes the claims over and tells, once; nothing after.
    wall.ms += SET_ASIDE_TELL_LEASE_MS;
    expect(await sweepHandler(["crashed"], wall)({}, {})).toMatchObject({ setAsideTold: 2 });
    const [notice, ...more] = await readOps(1);
    expect(more).toEqual([]);
    expect(listedIn(notice ? [notice] : [])).toHaveLength(2);
    // The id the dead teller's notice carried: a subscriber can drop a repeat by it.
    expect(notice?.attributes.notice_id?.value).toBe(setAsideNotice("crashed", entries).id);
    expect(notice?.attributes.notice_id?.value).toMatch(/^set-aside:crashed:[0-9a-f]{32}$/);
    expect(await sweepHandler(["crashed"], wall)({}, {})).toMatchObject({ setAsideTold: 0 });
    await setAsideOn(wall).put(entries);
    expect(await readOps()).toEqual([]);
    expect(await store.owed("crashed", 10)).toEqual([]);
  });

  it("after a death between the claim and the tell: a later put past the lease takes the claims over", async () => {
    const entries = entriesOf("replayed", 2);
    const wall = { ms: Date.parse("2027-01-01T00:00:00Z") };
    const dying: OpsChannel = { tell: () => Promise.reject(new Error("died")) };
    await expect(setAsideOn(wall, { ops: dying }).put(entries)).rejects.toThrow("died");
    wall.ms += SET_ASIDE_TELL_LEASE_MS;
    await setAsideOn(wall).put(entries);
    expect(listedIn(await readOps(1))).toHaveLength(2);
    await setAsideOn(wall).put(entries);
    expect(await readOps()).toEqual([]);
  });

  it("after a death before the entry was kept: the sweep keeps it and tells it", async () => {
    const [entry] = entriesOf("unkept", 1) as [SetAsideEntry];
    const wall = { ms: Date.parse("2027-01-01T00:00:00Z") };
    const dyingStore: SetAsideRecords = {
      owe: (entries) => store.owe(entries),
      add: () => Promise.reject(new Error("died after noting it owed")),
      claimTelling: (...args) => store.claimTelling(...args),
      markTold: (...args) => store.markTold(...args),
      owed: (...args) => store.owed(...args),
      list: (...args) => store.list(...args),
    };
    await expect(setAsideOn(wall, { records: dyingStore }).put([entry])).rejects.toThrow("died");
    expect(await store.list("unkept", 10)).toEqual([]);
    expect(await sweepHandler(["unkept"], wall)({}, {})).toMatchObject({ setAsideTold: 1 });
    expect(listedIn(await readOps(1))).toEqual([expect.stringContaining(`- ${entry.alertId},`)]);
    expect(await store.list("unkept", 10)).toEqual([
      expect.objectContaining({ ...entry, setAsideAtMs: BUSINESS_MS + 86_400_000 }),
    ]);
  });
});
