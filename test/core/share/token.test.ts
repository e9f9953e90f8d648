import { createHash, createHmac } from "node:crypto";
import { alertIdOf } from "@fleet-alerts/core/alerts";
import {
  derivedShareToken,
  InvalidAlertIdError,
  newShareToken,
  parseAlertId,
  parseShareToken,
  parseTokenId,
} from "@fleet-alerts/core/share";
import { describe, expect, it } from "vitest";

describe("share tokens", () => {
  it("derived from an alert id are HMAC-SHA256 with the secret, first 16 bytes, same id same token", () => {
    const { token, hash, tokenId } = derivedShareToken("s3cret", "east:1001:overspeed");
    const expected = createHmac("sha256", "s3cret").update("east:1001:overspeed").digest().subarray(0, 16);
    expect(Buffer.from(token, "base64url")).toEqual(expected);
    expect(parseShareToken(token)).toBe(token);
    expect(hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(tokenId).toBe(hash.slice(0, 16));
    expect(derivedShareToken("s3cret", "east:1001:overspeed").token).toBe(token);
    expect(derivedShareToken("other", "east:1001:overspeed").token).not.toBe(token);
    expect(derivedShareToken("s3cret", "east:1002:overspeed").token).not.toBe(token);
  });

  it("are 22 base64url characters (128 bits), stored as their SHA-256, named by its first 16 hex digits", () => {
    const tokens = Array.from({ length: 200 }, () => newShareToken());
    for (const { token, hash, tokenId } of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(token, "base64url")).toHaveLength(16);
      expect(hash).toBe(createHash("sha256").update(token).digest("hex"));
      expect(tokenId).toBe(hash.slice(0, 16));
      expect(parseShareToken(token)).toBe(token);
      expect(parseTokenId(tokenId)).toBe(tokenId);
    }
    expect(new Set(tokens.map(({ token }) => token)).size).toBe(tokens.length);
  });

  it("refuses anything not shaped like a token or a token id", () => {
    const token = newShareToken().token;
    for (const text of [
      "",
      token.slice(1),
      `${token}A`,
      `${token.slice(1)}=`,
      `${token.slice(1)}/`,
      `${token.slice(1)} `,
    ])
      expect(parseShareToken(text)).toBeUndefined();
    for (const text of ["", "0123456789abcde", "0123456789ABCDEF", "0123456789abcdef0", "0123456789abcdeg"])
      expect(parseTokenId(text)).toBeUndefined();
  });
});

describe("alert ids", () => {
  it("parse back into the parts alertIdOf joined, serial numbers exact at any size", () => {
    const id = alertIdOf("east", 98765432109876543210n, "harsh-braking_2");
    expect(parseAlertId(id)).toEqual({
      account: "east",
      serialno: 98765432109876543210n,
      ruleId: "harsh-braking_2",
    });
  });

  it("refuse every other text with a typed error", () => {
    for (const text of [
      "",
      "east",
      "east:12",
      "east:12:",
      ":12:rule",
      "east:x:rule",
      "east:012:rule",
      "a:1:b:c",
      "east:1:ru le",
    ])
      expect(() => parseAlertId(text), text).toThrow(InvalidAlertIdError);
  });
});
