import { createHash, createHmac, randomBytes } from "node:crypto";

// 128 bits: beyond guessing, and short enough (22 characters) for a link in an SMS.
const TOKEN_BYTES = 16;
const TOKEN = /^[A-Za-z0-9_-]{22}$/;
const TOKEN_ID = /^[0-9a-f]{16}$/;

export interface NewShareToken {
  /** The secret: handed out once, in the link, and never stored. */
  token: string;
  /** SHA-256 of the token, hex: what is stored to recognise it. */
  hash: string;
  /** The hash's first 16 hex digits: names the link in listings and logs, and gives nothing back. */
  tokenId: string;
}

export function newShareToken(): NewShareToken {
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  return { token, ...hashOfToken(token) };
}

/**
 * The token of an alert's own link, derived from the alert id with a secret key
 * (HMAC-SHA256, first 16 bytes): the same alert always gets the same token, so a publish replayed
 * after a crash sends the link it sent before without the token ever being stored. Without the
 * secret, no alert's token can be worked out from its id.
 */
export function derivedShareToken(secret: string, alertId: string): NewShareToken {
  const token = createHmac("sha256", secret)
    .update(alertId)
    .digest()
    .subarray(0, TOKEN_BYTES)
    .toString("base64url");
  return { token, ...hashOfToken(token) };
}

/** The length of every token: 16 bytes in base64url, unpadded. */
export const SHARE_TOKEN_LENGTH = 22;

export function hashOfToken(token: string): { hash: string; tokenId: string } {
  const hash = createHash("sha256").update(token).digest("hex");
  return { hash, tokenId: hash.slice(0, 16) };
}

/** The token if the text is shaped like one (22 base64url characters), else undefined. */
export function parseShareToken(text: string): string | undefined {
  return TOKEN.test(text) ? text : undefined;
}

/** The token id if the text is shaped like one (16 lowercase hex digits), else undefined. */
export function parseTokenId(text: string): string | undefined {
  return TOKEN_ID.test(text) ? text : undefined;
}
