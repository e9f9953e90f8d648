import { type SetAsideEntry, SetAsideStore, setAsideNotice } from "@fleet-alerts/core/setaside";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";

let emulators: Emulators;
let store: SetAsideStore;
beforeAll(async () => {
  emulators = await startEmulators({ subscribeInbox: false });
  store = new SetAsideStore({ documents: emulators.clients.documents, tableName: emulators.tableName });
});
afterAll(() => emulators.close());

const entry = (serialno: string, overrides: Partial<SetAsideEntry> = {}): SetAsideEntry => ({
  account: "east",
  serialno,
  deviceid: "D1",
  ruleId: "crash",
  alertId: `east:${serialno}:crash`,
  step: "evidence-job",
  reason: "InvalidMessageContents: first",
  ...overrides,
});

describe("the set-aside store (DynamoDB emulator)", () => {
  it("keeps each entry once with its first reason and time, and owes ops a notice until told", async () => {
    const first = await store.add([entry("10")], 1_000);
    expect(first).toEqual([{ ...entry("10"), setAsideAtMs: 1_000 }]);
    // A replay meets the same refusal: the same entry, its first time and reason kept, still owed.
    expect(await store.add([entry("10", { reason: "again" })], 2_000)).toEqual(first);
    await store.markTold([entry("10")], 3_000);
    expect(await store.add([entry("10")], 4_000)).toEqual([]);
    expect(await store.list("east", 10)).toEqual([{ ...entry("10"), setAsideAtMs: 1_000, toldAtMs: 3_000 }]);
  });

  it("keeps a webhook job per target, and lists an account's entries newest serial first", async () => {
    await store.add(
      [
        entry("9", { step: "webhook-job", targetId: "a" }),
        entry("9", { step: "webhook-job", targetId: "b" }),
        entry("100", { step: "record" }),
        entry("5", { account: "west" }),
      ],
      5_000,
    );
    const listed = await store.list("east", 10);
    expect(listed.map((stored) => `${stored.serialno} ${stored.step} ${stored.targetId ?? ""}`)).toEqual([
      "100 record ",
      "10 evidence-job ",
      "9 webhook-job b",
      "9 webhook-job a",
    ]);
    expect(await store.list("east", 2)).toHaveLength(2);
  });
});

describe("telling ops, claimed (DynamoDB emulator)", () => {
  it("claims each untold entry for one caller, again only past the lease, and owes it until told", async () => {
    const owing = ["1", "2", "3"].map((serialno) => entry(serialno, { account: "owing" }));
    await store.owe(owing);
    // A bounded read: the sweep takes `limit` at a time.
    expect(await store.owed("owing", 2)).toEqual(owing.slice(0, 2));
    await store.add(owing, 1_000);
    const [first, second] = await Promise.all([
      store.claimTelling(owing, 10_000, 5_000),
      store.claimTelling(owing, 10_000, 5_000),
    ]);
    expect([...(first ?? []), ...(second ?? [])].map((stored) => stored.serialno).sort()).toEqual([
      "1",
      "2",
      "3",
    ]);
    expect(await store.claimTelling(owing, 14_999, 5_000)).toEqual([]);
    expect(await store.claimTelling(owing.slice(0, 1), 15_000, 5_000)).toEqual([
      { ...owing[0], setAsideAtMs: 1_000, tellClaimedAtMs: 15_000 },
    ]);
    await store.markTold(owing, 16_000);
    expect(await store.owed("owing", 10)).toEqual([]);
    expect(await store.claimTelling(owing, 99_000, 5_000)).toEqual([]);
  });
});

describe("the ops notice", () => {
  it("names each record, its step and AWS's reason on one line each, never a device's text as lines", () => {
    const notice = setAsideNotice("east", [
      entry("10"),
      entry("11", { deviceid: "D\r\nForged: line\u202E", step: "record", reason: "too\nlarge" }),
    ]);
    expect(notice.subject).toBe("fleet-alerts: 2 records set aside in account east");
    const lines = notice.text.split("\n");
    expect(lines.filter((line) => line.startsWith("- "))).toEqual([
      "- east:10:crash, device D1: its evidence job was not queued (no video will be fetched). AWS refused it for good: InvalidMessageContents: first",
      "- east:11:crash, device D Forged: line: its alert record could not be stored. AWS refused it for good: too large",
    ]);
    expect(lines.at(-1)).toBe("List them: fleet-alerts set-aside list --account east");
  });

  it("is named by its entries, whatever their order: told again, the same entries carry the same id", () => {
    const [a, b] = [entry("10"), entry("11", { step: "webhook-job", targetId: "t" })];
    const id = setAsideNotice("east", [a, b]).id;
    expect(id).toMatch(/^set-aside:east:[0-9a-f]{32}$/);
    expect(setAsideNotice("east", [b, a]).id).toBe(id);
    expect(setAsideNotice("east", [a]).id).not.toBe(id);
    // Ids of the configuration only: never a device's text nor AWS's reason.
    expect(setAsideNotice("east", [entry("10", { deviceid: "Anna's van" })]).id).toBe(
      setAsideNotice("east", [a]).id,
    );
  });
});
