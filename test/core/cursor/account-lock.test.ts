import { AccountLock, type HeldLease, type LeaseTake } from "@fleet-alerts/core/cursor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";

const T0 = Date.parse("2026-01-05T12:00:00Z");
/** A poll's take at `nowMs`, holding for as long as a 60 s invocation would and its margin. */
const take = (token: string, nowMs: number, handedOverBy?: string): LeaseTake => ({
  token,
  nowMs,
  untilMs: nowMs + 75_000,
  ...(handedOverBy !== undefined && { handedOverBy }),
});

describe("the account lease on DynamoDB", () => {
  let emulators: Emulators;
  let lock: AccountLock;
  const table = () => ({ documents: emulators.clients.documents, tableName: emulators.tableName });
  beforeAll(async () => {
    emulators = await startEmulators();
    lock = new AccountLock(table());
  });
  afterAll(() => emulators.close());

  /** The lease's own writes while `step` runs. */
  async function writesOf(step: () => Promise<unknown>): Promise<number> {
    const before = await emulators.requestCounts();
    await step();
    const after = await emulators.requestCounts();
    return (after["DynamoDB UpdateItem"] ?? 0) - (before["DynamoDB UpdateItem"] ?? 0);
  }

  it("holds until the time it was taken for, refusing every other take, and gives each take a greater epoch", async () => {
    const a = (await lock.acquire("north", take("run-a", T0))) as HeldLease;
    expect(a).toMatchObject({ account: "north", token: "run-a", untilMs: T0 + 75_000 });
    // The first epoch starts at the clock's milliseconds: an item made again starts above any before.
    expect(a.epoch).toBe(T0 + 1);
    expect(await lock.acquire("north", take("run-b", T0 + 60_000))).toBeUndefined();
    expect(await lock.acquire("north", take("run-b", T0 + 75_000))).toBeUndefined();
    // Past it (the run that took it crashed, or stalled): another takes it, with a greater epoch.
    const b = (await lock.acquire("north", take("run-b", T0 + 75_001))) as HeldLease;
    expect(b.epoch).toBe(a.epoch + 1);
    // The first run's release gives up nothing that is not its own.
    await lock.release(a);
    expect(await lock.acquire("north", take("run-c", T0 + 80_000))).toBeUndefined();
    await lock.release(b);
    expect((await lock.acquire("north", take("run-c", T0 + 80_000)))?.epoch).toBe(b.epoch + 1);
  });

  it("keeps when a run last caught up, for the account's next run in any process to learn", async () => {
    const a = (await lock.acquire("south", take("run-a", T0))) as HeldLease;
    expect(lock.lastCaughtUpMs("south")).toBeUndefined();
    await lock.release(a, T0 + 5_000);
    // Another process (a cold container) learns it as it takes the lease, in the same write.
    const elsewhere = new AccountLock(table());
    expect(elsewhere.lastCaughtUpMs("south")).toBeUndefined();
    let b: HeldLease | undefined;
    expect(
      await writesOf(async () => {
        b = await elsewhere.acquire("south", take("run-b", T0 + 60_000));
      }),
    ).toBe(1);
    expect(elsewhere.lastCaughtUpMs("south")).toBe(T0 + 5_000);
    // A run that did not catch up (it failed) leaves the time as it was; one that did moves it.
    await elsewhere.release(b as HeldLease);
    const c = (await lock.acquire("south", take("run-c", T0 + 120_000))) as HeldLease;
    expect(lock.lastCaughtUpMs("south")).toBe(T0 + 5_000);
    await lock.release(c, T0 + 130_000);
    expect(lock.lastCaughtUpMs("south")).toBe(T0 + 130_000);
  });

  it("passes from one poll of a chain to the next by its token, without a write, and to no other poll", async () => {
    const first = (await lock.acquire("east", take("poll-1", T0))) as HeldLease;
    // The poll ends and the chain goes on: the lease is left held, with no request.
    expect(await writesOf(async () => lock.handOver(first, T0 + 500))).toBe(0);
    // The chain's next poll takes it over by the token its timer carries, with a new epoch ...
    const second = (await lock.acquire("east", take("poll-2", T0 + 5_000, "poll-1"))) as HeldLease;
    expect(second.epoch).toBe(first.epoch + 1);
    // ... and a copy of the same timer (the same token), a late one, another chain or a poll of no
    // chain is refused while it holds.
    expect(await lock.acquire("east", take("copy", T0 + 5_100, "poll-1"))).toBeUndefined();
    expect(await lock.acquire("east", take("other", T0 + 5_100, "someone"))).toBeUndefined();
    expect(await lock.acquire("east", take("alone", T0 + 5_100))).toBeUndefined();
    lock.handOver(second);
    // The chain's last poll found nothing: it releases what it was handed, once; the next chain takes it.
    expect(await writesOf(() => lock.releaseHandedOver("east", "poll-2", T0 + 59_000))).toBe(1);
    expect(await writesOf(() => lock.releaseHandedOver("east", "poll-2", T0 + 59_000))).toBe(0);
    const next = (await lock.acquire("east", take("next", T0 + 60_000))) as HeldLease;
    expect(next.epoch).toBe(second.epoch + 1);
    // Another chain's lease is not its to release.
    expect(await writesOf(() => lock.releaseHandedOver("east", "poll-2", T0 + 61_000))).toBe(0);
    expect(await lock.acquire("east", take("alone", T0 + 61_000))).toBeUndefined();
    expect(lock.lastCaughtUpMs("east")).toBe(T0 + 61_000);
  });
});
