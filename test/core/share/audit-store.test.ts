import { alertIdOf } from "@fleet-alerts/core/alerts";
import { AccessAudit, InvalidAlertIdError } from "@fleet-alerts/core/share";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";

const NOW = Date.parse("2026-03-01T08:00:00Z");

let emulators: Emulators;
let audit: AccessAudit;
beforeAll(async () => {
  emulators = await startEmulators();
  audit = new AccessAudit({ documents: emulators.clients.documents, tableName: emulators.tableName });
});
afterAll(() => emulators.close());

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

    const entries = await audit.list(alertId);
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
    expect((await audit.list(mine)).map(({ tokenId }) => tokenId)).toEqual(["0123456789abcdef"]);
    await expect(audit.list("east:5002")).rejects.toThrow(InvalidAlertIdError);
  });
});
