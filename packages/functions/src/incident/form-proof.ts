import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The acknowledgement form's hidden field: an HMAC of the link's tokenId. Another site can make a
 * browser post to the app, but cannot know this value without reading the page.
 */
export function formProof(secret: string, tokenId: string): string {
  return createHmac("sha256", secret).update(`acknowledge:${tokenId}`).digest("base64url");
}

export function isFormProof(secret: string, tokenId: string, proof: string): boolean {
  const expected = Buffer.from(formProof(secret, tokenId));
  const given = Buffer.from(proof);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
