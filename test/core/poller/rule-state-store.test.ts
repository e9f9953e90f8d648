import type { BatchWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { LeaseGuard } from "@fleet-alerts/core/cursor";
import { RuleStateStore } from "@fleet-alerts/core/poller";
import type { RuleState } from "@fleet-alerts/core/rules";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";

const state = (serial: number, extra: Partial<RuleState> = {}): RuleState => ({
  seenSerialno: BigInt(serial),
  suppressed: 0,
  ...extra,
});
const EVERY_FIELD = ["seenSerialno", "lastAlertSerialno", "lastAlertEventMs", "suppressed"] as const;
/** A poll's lease whose time is not up. */
const held = (epoch = 1) => new LeaseGuard("acct", epoch, Number.POSITIVE_INFINITY, Date.now);

describe("saving many rule states at once", () => {
  let emulators: Emulators;
  beforeAll(async () => {
    emulators = await startEmulators();
  });
  afterAll(() => emulators.close());

  it("writes whole states in batches and leaves the fields another writer owns alone", async () => {
    const store = new RuleStateStore({
      documents: emulators.clients.documents,
      tableName: emulators.tableName,
    });
    // The Offline confirmation owns `suppressed` of an Offline rule's state, and wrote it first.
    await store.save("acct", "D-offline", "offline", state(0, { suppressed: 4 }), ["suppressed"]);
    const whole = Array.from({ length: 60 }, (_, index) => ({
      deviceid: `D${index}`,
      ruleId: "speed",
      state: state(1_000 + index, {
        lastAlertSerialno: BigInt(900 + index),
        lastAlertEventMs: index,
        suppressed: 2,
      }),
      fields: EVERY_FIELD,
    }));
    await store.saveAll(
      "acct",
      [...whole, { deviceid: "D-offline", ruleId: "offline", state: state(1_500), fields: ["seenSerialno"] }],
      held(),
    );
    const saved = await store.loadAll("acct");
    expect(saved.size).toBe(61);
    for (const change of whole) {
      expect(await store.get("acct", change.deviceid, "speed")).toEqual(change.state);
    }
    expect(await store.get("acct", "D-offline", "offline")).toEqual(state(1_500, { suppressed: 4 }));
  });
});

describe("the rule states an account keeps", () => {
  let emulators: Emulators;
  beforeAll(async () => {
    emulators = await startEmulators();
  });
  afterAll(() => emulators.close());

  it("are one per rule and device, however many chunks saved them: loadAll grows with the fleet, never the backlog", async () => {
    const store = new RuleStateStore({
      documents: emulators.clients.documents,
      tableName: emulators.tableName,
    });
    const devices = Array.from({ length: 20 }, (_, index) => `D${index}`);
    // Fifty chunks of a long backlog, each moving every device's states of both rules on.
    for (let chunk = 0; chunk < 50; chunk++)
      await store.saveAll(
        "backlog",
        devices.flatMap((deviceid) =>
          ["speed", "shock"].map((ruleId) => ({
            deviceid,
            ruleId,
            state: state(chunk * 1_000 + devices.indexOf(deviceid)),
            fields: EVERY_FIELD,
          })),
        ),
        held(),
      );
    const states = await store.loadAll("backlog");
    expect(states.size).toBe(devices.length * 2);
    expect([...states.values()].every((saved) => saved.seenSerialno >= 49_000n)).toBe(true);
  });
});

// dynalite never leaves batch items unprocessed (it does not throttle), so DynamoDB's answer under
// throttling is scripted here.
describe("batch items DynamoDB leaves unprocessed", () => {
  function scriptedTable(unprocessedAnswers: number) {
    const sent: number[] = [];
    const documents = {
      send: async (command: BatchWriteCommand | UpdateCommand) => {
        // The rule-state fence's update, before the batches: taken.
        if (!("RequestItems" in command.input)) return {};
        const requests = command.input.RequestItems?.table ?? [];
        sent.push(requests.length);
        const unprocessed = sent.length <= unprocessedAnswers ? requests.slice(0, 1) : [];
        return { UnprocessedItems: unprocessed.length > 0 ? { table: unprocessed } : {} };
      },
    };
    return { table: { documents, tableName: "table" } as never, sent };
  }
  const changes = [1, 2, 3].map((index) => ({
    deviceid: `D${index}`,
    ruleId: "speed",
    state: state(index),
    fields: EVERY_FIELD,
  }));

  it("sends them again until every one is written", async () => {
    const { table, sent } = scriptedTable(2);
    await new RuleStateStore(table, { attempts: 5, delayMs: 1 }).saveAll("acct", changes, held());
    expect(sent).toEqual([3, 1, 1]);
  });

  it("fails the step when some are still unwritten after the last attempt", async () => {
    const { table, sent } = scriptedTable(10);
    await expect(
      new RuleStateStore(table, { attempts: 3, delayMs: 1 }).saveAll("acct", changes, held()),
    ).rejects.toThrow("1 of 3 items left unwritten after 3 attempts");
    expect(sent).toEqual([3, 1, 1]);
  });
});
