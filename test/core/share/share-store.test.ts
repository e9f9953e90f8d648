import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { alertIdOf } from "@fleet-alerts/core/alerts";
import {
  derivedShareToken,
  InvalidAlertIdError,
  LISTING_PAGE_MAX,
  type NewShareGrant,
  newShareToken,
  ShareStore,
} from "@fleet-alerts/core/share";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";
import { recordTableReads } from "../../support/table-reads.js";

const NOW = Date.parse("2026-03-01T08:00:00Z");
const DAY_MS = 86_400_000;
/** The alert's live links: one page holds them all here. */
const liveLinks = async (alertId: string, nowMs: number) =>
  (await shares.list(alertId, nowMs, { limit: 100 })).entries;

let emulators: Emulators;
let shares: ShareStore;
beforeAll(async () => {
  emulators = await startEmulators();
  shares = new ShareStore({ documents: emulators.clients.documents, tableName: emulators.tableName });
});
afterAll(() => emulators.close());

function grantFor(serialno: bigint, overrides: Partial<NewShareGrant> = {}): NewShareGrant {
  const alert = { account: "east", serialno, ruleId: "overspeed" };
  return {
    ...alert,
    alertId: alertIdOf(alert.account, alert.serialno, alert.ruleId),
    scope: "view",
    expiresAtMs: NOW + 3 * DAY_MS,
    createdBy: "dana",
    ...overrides,
  };
}

async function tableText(): Promise<string> {
  const { Items = [] } = await emulators.clients.documents.send(
    new ScanCommand({ TableName: emulators.tableName, ConsistentRead: true }),
  );
  return JSON.stringify(Items);
}

describe("ShareStore", () => {
  it("creates a link that resolves to its alert's grant until it expires, and lists it meanwhile", async () => {
    const grant = grantFor(1001n, { scope: "view+ack" });
    const created = await shares.create(grant, NOW);
    expect(created.expiresAtMs).toBe(grant.expiresAtMs);
    expect(created.tokenId).toMatch(/^[0-9a-f]{16}$/);

    const resolved = await shares.resolve(created.token, NOW + DAY_MS);
    expect(resolved).toEqual({
      alertId: grant.alertId,
      account: "east",
      serialno: 1001n,
      ruleId: "overspeed",
      tokenId: created.tokenId,
      scope: "view+ack",
      expiresAtMs: grant.expiresAtMs,
      createdBy: "dana",
      createdAt: new Date(NOW).toISOString(),
    });
    expect(await liveLinks(grant.alertId, NOW)).toEqual([
      {
        alertId: grant.alertId,
        tokenId: created.tokenId,
        scope: "view+ack",
        expiresAtMs: grant.expiresAtMs,
        createdBy: "dana",
        createdAt: new Date(NOW).toISOString(),
        revoked: false,
      },
    ]);

    // Expired from its expiry on, to resolve and to the listing alike.
    expect(await shares.resolve(created.token, grant.expiresAtMs - 1)).toBeDefined();
    expect(await shares.resolve(created.token, grant.expiresAtMs)).toBeUndefined();
    expect(await liveLinks(grant.alertId, grant.expiresAtMs)).toEqual([]);
  });

  it("revokes at once, only through its own alert, and lists only what is live", async () => {
    const grant = grantFor(1002n);
    const [kept, ended] = [await shares.create(grant, NOW), await shares.create(grant, NOW + 1)];
    const other = alertIdOf("east", 1003n, "overspeed");

    expect(await shares.revoke(other, ended.tokenId)).toBe(false);
    expect(await shares.resolve(ended.token, NOW)).toBeDefined();
    expect(await shares.revoke(grant.alertId, "not-a-token-id")).toBe(false);

    expect(await shares.revoke(grant.alertId, ended.tokenId)).toBe(true);
    expect(await shares.resolve(ended.token, NOW)).toBeUndefined();
    expect(await shares.resolve(kept.token, NOW)).toBeDefined();
    expect((await liveLinks(grant.alertId, NOW)).map(({ tokenId }) => tokenId)).toEqual([kept.tokenId]);
    // Revoking again is harmless; an id the alert never had is not revoked.
    expect(await shares.revoke(grant.alertId, ended.tokenId)).toBe(true);
    expect(await shares.revoke(grant.alertId, newShareToken().tokenId)).toBe(false);
  });

  it("lists each alert's links apart, rule ids that prefix one another included", async () => {
    const short = grantFor(1004n, { ruleId: "speed", alertId: alertIdOf("east", 1004n, "speed") });
    const long = grantFor(1004n, { ruleId: "speed-x", alertId: alertIdOf("east", 1004n, "speed-x") });
    const [a, b] = [await shares.create(short, NOW), await shares.create(long, NOW)];
    expect((await liveLinks(short.alertId, NOW)).map(({ tokenId }) => tokenId)).toEqual([a.tokenId]);
    expect((await liveLinks(long.alertId, NOW)).map(({ tokenId }) => tokenId)).toEqual([b.tokenId]);
  });

  it("refuses a grant whose alert id does not match its parts, and bad alert ids", async () => {
    await expect(shares.create(grantFor(1005n, { serialno: 1006n }), NOW)).rejects.toThrow(
      InvalidAlertIdError,
    );
    await expect(liveLinks("east:1005", NOW)).rejects.toThrow(InvalidAlertIdError);
    await expect(shares.revoke("east:1005:overspeed:x", "0123456789abcdef")).rejects.toThrow(
      InvalidAlertIdError,
    );
  });

  it("tells unknown, malformed, expired and revoked tokens apart in no way: undefined, each", async () => {
    const expired = await shares.create(grantFor(1007n, { expiresAtMs: NOW + 1000 }), NOW);
    const revoked = await shares.create(grantFor(1007n), NOW);
    await shares.revoke(grantFor(1007n).alertId, revoked.tokenId);
    const malformed = [
      "",
      "x",
      `${revoked.token}x`,
      `${revoked.token.slice(1)}=`,
      "../../etc/passwd?x=1&y=2",
    ];
    for (const token of [newShareToken().token, expired.token, revoked.token, ...malformed])
      expect(await shares.resolve(token, NOW + 2000), token).toBeUndefined();
  });

  it("keeps no token in the table, nor anything it follows from", async () => {
    const created = await Promise.all(
      Array.from({ length: 5 }, (_, index) => shares.create(grantFor(2000n + BigInt(index)), NOW)),
    );
    const text = await tableText();
    for (const { token, tokenId } of created) {
      expect(text).toContain(tokenId);
      expect(text).not.toContain(token);
      // Nor its bytes in another spelling.
      expect(text).not.toContain(Buffer.from(token, "base64url").toString("hex"));
      expect(text).not.toContain(Buffer.from(token, "base64url").toString("base64"));
    }
  });

  it("finds nothing for 10,000 random well-formed tokens", async () => {
    await shares.create(grantFor(3000n), NOW);
    const BATCH = 200;
    let found = 0;
    for (let start = 0; start < 10_000; start += BATCH) {
      const batch = Array.from({ length: BATCH }, () => shares.resolve(newShareToken().token, NOW));
      found += (await Promise.all(batch)).filter((grant) => grant !== undefined).length;
    }
    expect(found).toBe(0);
  }, 60_000);

  it("writes a given token's grant once: a repeat returns the first grant and changes nothing", async () => {
    const grant = grantFor(4000n, { scope: "view+ack", createdBy: "alert" });
    const { token, tokenId } = derivedShareToken("secret", grant.alertId);
    const first = await shares.createWithToken(grant, token, NOW);
    expect(first).toEqual({ token, tokenId, expiresAtMs: grant.expiresAtMs });
    const again = await shares.createWithToken(
      { ...grant, expiresAtMs: NOW + 9 * DAY_MS },
      token,
      NOW + DAY_MS,
    );
    expect(again).toEqual(first);
    expect(await liveLinks(grant.alertId, NOW)).toHaveLength(1);
    expect((await shares.resolve(token, NOW))?.expiresAtMs).toBe(grant.expiresAtMs);
    expect(await tableText()).not.toContain(token);
  });

  it("refuses a given token already granted on another alert, and one not shaped like a token", async () => {
    const { token } = derivedShareToken("secret", "east:4001:overspeed");
    await shares.createWithToken(grantFor(4001n), token, NOW);
    await expect(shares.createWithToken(grantFor(4002n), token, NOW)).rejects.toThrow(/taken by another/);
    expect((await shares.resolve(token, NOW))?.alertId).toBe("east:4001:overspeed");
    await expect(shares.createWithToken(grantFor(4003n), "short", NOW)).rejects.toThrow(/not a share token/);
  });
});

describe("ShareStore's listing, a page at a time", () => {
  it("pages through an alert's live links in token-id order, reading past revoked ones without holding them", async () => {
    const grant = grantFor(1010n);
    const links = [];
    for (let index = 0; index < 7; index++) links.push(await shares.create(grant, NOW + index));
    const revoked = links.filter((_, index) => index % 2 === 1);
    for (const link of revoked) await shares.revoke(grant.alertId, link.tokenId);
    const live = links
      .filter((link) => !revoked.includes(link))
      .map((link) => link.tokenId)
      .sort();
    const reads = recordTableReads(emulators.clients.documents);

    const pages: string[][] = [];
    let after: string | undefined;
    do {
      reads.length = 0;
      const page = await shares.list(grant.alertId, NOW, { limit: 3, after });
      pages.push(page.entries.map(({ tokenId }) => tokenId));
      for (const read of reads) expect(read.asked).toBeLessThanOrEqual(4);
      after = page.next;
    } while (after !== undefined);

    expect(pages).toEqual([live.slice(0, 3), live.slice(3)]);
    await expect(shares.list(grant.alertId, NOW, { limit: LISTING_PAGE_MAX + 1 })).rejects.toThrow(
      RangeError,
    );
  });
});
