import { AccountLock } from "@fleet-alerts/core/cursor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";

const LEASE_MS = 45_000;
const T0 = Date.parse("2026-01-05T12:00:00Z");

describe("the account lease on DynamoDB", () => {
  let emulators: Emulators;
  let lock: AccountLock;
  beforeAll(async () => {
    emulators = await startEmulators();
    lock = new AccountLock(
      { documents: emulators.clients.documents, tableName: emulators.tableName },
      LEASE_MS,
    );
  });
  afterAll(() => emulators.close());

  /** The lease's own writes while `step` runs. */
  async function writesOf(step: () => Promise<unknown>): Promise<number> {
    const before = await emulators.requestCounts();
    await step();
    const after = await emulators.requestCounts();
    return (after["DynamoDB UpdateItem"] ?? 0) - (before["DynamoDB UpdateItem"] ?? 0);
  }

  it("extends a lease only once half of it has passed, and refuses one another run took", async () => {
    expect(await lock.acquire("north", "run-a", T0)).toBe(true);
    expect(await lock.acquire("north", "run-b", T0 + 1_000)).toBe(false);
    // Renewed after every chunk, a second or so apart: nothing to write while most of it is left.
    let renewed = true;
    expect(
      await writesOf(async () => {
        for (let ms = 1_000; ms < LEASE_MS / 2; ms += 1_000)
          renewed &&= await lock.renew("north", "run-a", T0 + ms);
      }),
    ).toBe(0);
    expect(renewed).toBe(true);
    // Half gone: extended, so that it still holds 40 s on, past the first expiry.
    expect(
      await writesOf(async () => expect(await lock.renew("north", "run-a", T0 + 25_000)).toBe(true)),
    ).toBe(1);
    expect(await lock.acquire("north", "run-b", T0 + 50_000)).toBe(false);
    // Left to expire (a run stalled): another run takes it, and the first learns so at its next renewal.
    expect(await lock.acquire("north", "run-b", T0 + 25_000 + LEASE_MS + 1)).toBe(true);
    expect(await lock.renew("north", "run-a", T0 + 25_000 + LEASE_MS + 2)).toBe(false);
    expect(await lock.renew("north", "run-b", T0 + 25_000 + LEASE_MS + 3)).toBe(true);
    await lock.release("north", "run-b");
    expect(await lock.acquire("north", "run-c", T0 + 25_000 + LEASE_MS + 4)).toBe(true);
  });

  it("keeps when a run last caught up, for the account's next run in any process to learn", async () => {
    expect(await lock.acquire("south", "run-a", T0)).toBe(true);
    expect(lock.lastCaughtUpMs("south")).toBeUndefined();
    await lock.release("south", "run-a", T0 + 5_000);
    // Another process (a cold container) learns it as it takes the lease, in the same write.
    const elsewhere = new AccountLock(
      { documents: emulators.clients.documents, tableName: emulators.tableName },
      LEASE_MS,
    );
    expect(elsewhere.lastCaughtUpMs("south")).toBeUndefined();
    expect(await writesOf(() => elsewhere.acquire("south", "run-b", T0 + 60_000))).toBe(1);
    expect(elsewhere.lastCaughtUpMs("south")).toBe(T0 + 5_000);
    // A run that did not catch up (it failed) leaves the time as it was; one that did moves it.
    await elsewhere.release("south", "run-b");
    expect(await lock.acquire("south", "run-c", T0 + 120_000)).toBe(true);
    expect(lock.lastCaughtUpMs("south")).toBe(T0 + 5_000);
    expect(await lock.acquire("south", "run-d", T0 + 121_000)).toBe(false); // released, then taken again: held
    await lock.release("south", "run-c", T0 + 130_000);
    expect(lock.lastCaughtUpMs("south")).toBe(T0 + 130_000);
  });

  it("passes from one poll of a chain to the next without a write, and to no other poll", async () => {
    const chainA = { chain: "A", plannedMs: T0 };
    expect(await lock.acquire("east", "poll-1", T0, chainA)).toBe(true);
    // The poll ends and the chain goes on: the lease is left held, with no request.
    expect(await writesOf(async () => lock.handOver("east", "poll-1", T0 + 500))).toBe(0);
    // The chain's next poll takes it over; a copy of the same timer, another chain, or a poll of
    // no chain is refused while it is held.
    expect(await lock.acquire("east", "poll-2", T0 + 5_000, { chain: "A", plannedMs: T0 + 5_000 })).toBe(
      true,
    );
    expect(await lock.acquire("east", "copy", T0 + 5_100, { chain: "A", plannedMs: T0 + 5_000 })).toBe(false);
    expect(await lock.acquire("east", "stale", T0 + 5_100, { chain: "A", plannedMs: T0 })).toBe(false);
    expect(await lock.acquire("east", "other", T0 + 5_100, { chain: "B", plannedMs: T0 + 5_100 })).toBe(
      false,
    );
    expect(await lock.acquire("east", "alone", T0 + 5_100)).toBe(false);
    lock.handOver("east", "poll-2");
    // The chain's last poll found nothing: it releases what the chain holds, once; the next chain takes it.
    expect(await writesOf(() => lock.releaseChain("east", "A", T0 + 59_000))).toBe(1);
    expect(await writesOf(() => lock.releaseChain("east", "A", T0 + 59_000))).toBe(0);
    expect(await lock.acquire("east", "next", T0 + 60_000, { chain: "B", plannedMs: T0 + 60_000 })).toBe(
      true,
    );
    // Another chain's lease is not its to release.
    expect(await writesOf(() => lock.releaseChain("east", "A", T0 + 61_000))).toBe(0);
    expect(await lock.acquire("east", "alone", T0 + 61_000)).toBe(false);
    expect(lock.lastCaughtUpMs("east")).toBe(T0 + 61_000);
  });
});
