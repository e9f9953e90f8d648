import { alertIdOf } from "@fleet-alerts/core/alerts";
import { AccessAudit, InvalidAlertIdError, LISTING_PAGE_MAX } from "@fleet-alerts/core/share";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";
import { recordTableReads } from "../../support/table-reads.js";

const NOW = Date.parse("2026-03-01T08:00:00Z");

let emulators: Emulators;
let audit: AccessAudit;
beforeAll(async () => {
  emulators = await startEmulators();
  audit = new AccessAudit({ documents: emulators.clients.documents, tableName: emulators.tableName });
});
afterAll(() => emulators.close());

/** The alert's accesses: one page holds them all here. */
const entriesOf = async (alertId: string) => (await audit.list(alertId, { limit: 100 })).entries;

describe("AccessAudit", () => {
  it("lists an alert's accesses in time order, same-millisecond ones kept, user agents bounded", async () => {
    const alertId = alertIdOf("east", 5001n, "overspeed");
    const access = { alertId, tokenId: "0123456789abcdef", userAgent: "Mozilla/5.0" };
    // Recorded out of order: the list is in time order all the same.
    await audit.record({ ...access, action: "clip", atMs: NOW + 2000 });
    await audit.record({ ...access, action: "view", atMs: NOW });
    await audit.record({ ...access, action: "ack", atMs: NOW + 1000 });
    await audit.record({ ...access, action: "pack", atMs: NOW + 1000 });
    await audit.record({ ...access, action: "view", atMs: NOW + 3000, userAgent: "x".repeat(5000) });

    const entries = await entriesOf(alertId);
    expect(entries.map(({ atMs }) => atMs)).toEqual([NOW, NOW + 1000, NOW + 1000, NOW + 2000, NOW + 3000]);
    expect(
      entries
        .slice(1, 3)
        .map(({ action }) => action)
        .sort(),
    ).toEqual(["ack", "pack"]);
    expect(entries[0]).toEqual({ ...access, action: "view", atMs: NOW });
    expect(entries[4]?.userAgent).toBe("x".repeat(256));
  });

  it("keeps each alert's entries apart, and refuses bad alert ids", async () => {
    const mine = alertIdOf("east", 5002n, "speed");
    await audit.record({
      alertId: mine,
      tokenId: "0123456789abcdef",
      action: "view",
      userAgent: "",
      atMs: NOW,
    });
    await audit.record({
      alertId: alertIdOf("east", 5002n, "speed-x"),
      tokenId: "fedcba9876543210",
      action: "view",
      userAgent: "",
      atMs: NOW,
    });
    expect((await entriesOf(mine)).map(({ tokenId }) => tokenId)).toEqual(["0123456789abcdef"]);
    await expect(entriesOf("east:5002")).rejects.toThrow(InvalidAlertIdError);
  });
});

describe("AccessAudit's listing, a page at a time", () => {
  it("pages through a link read many times, each Query bringing at most a page and one more", async () => {
    const alertId = alertIdOf("east", 5003n, "overspeed");
    const reads = recordTableReads(emulators.clients.documents);
    for (let index = 0; index < 25; index++)
      await audit.record({
        alertId,
        tokenId: "0123456789abcdef",
        action: "view",
        userAgent: "",
        atMs: NOW + index,
      });

    const seen: number[] = [];
    const pages: number[] = [];
    let after: string | undefined;
    do {
      reads.length = 0;
      const page = await audit.list(alertId, { limit: 10, after });
      pages.push(page.entries.length);
      seen.push(...page.entries.map(({ atMs }) => atMs));
      for (const read of reads) expect(read.asked).toBeLessThanOrEqual(11);
      after = page.next;
    } while (after !== undefined);

    expect(pages).toEqual([10, 10, 5]);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, index) => NOW + index));
  });

  it("lists from a time on when given one, and refuses a page over LISTING_PAGE_MAX", async () => {
    const alertId = alertIdOf("east", 5004n, "overspeed");
    for (let index = 0; index < 4; index++)
      await audit.record({
        alertId,
        tokenId: "0123456789abcdef",
        action: "view",
        userAgent: "",
        atMs: NOW + index * 1000,
      });
    const from = new Date(NOW + 2000).toISOString();
    expect((await audit.list(alertId, { limit: 10, after: from })).entries.map(({ atMs }) => atMs)).toEqual([
      NOW + 2000,
      NOW + 3000,
    ]);
    await expect(audit.list(alertId, { limit: LISTING_PAGE_MAX + 1 })).rejects.toThrow(RangeError);
    await expect(audit.list(alertId, { limit: 0 })).rejects.toThrow(RangeError);
  });
});
