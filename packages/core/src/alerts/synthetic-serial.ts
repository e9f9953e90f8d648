import { createHash } from "node:crypto";

/**
 * Alerts that no single event raised (a recorder's "not recording" gap, footage asked for by hand)
 * still need an alert id, `<account>:<serialno>:<ruleId>`, for their record, incident page, share
 * links and claim pack. Their serial number is derived from what identifies them, so that raising
 * the same one again (a retried audit, a repeated request) finds the same record instead of a
 * second one.
 *
 * Assumed: the device cloud's own serial numbers stay below 9×10^39 (the spec shows short
 * sequence numbers). A synthetic serial is 40 digits starting with 9, so it never falls inside the
 * serial range of a chunk of real events (`AlertStore.inWindow`), and its rule id (never a
 * user rule's) keeps it apart from every real alert.
 */
export const SYNTHETIC_SERIAL_FLOOR = 9n * 10n ** 39n;

export function syntheticSerial(...identity: readonly string[]): bigint {
  // Length-prefixed parts: ("ab", "c") and ("a", "bc") are different identities.
  const digest = createHash("sha256");
  for (const part of identity) digest.update(`${part.length}:${part}\u0000`);
  // 120 bits of the digest, below 10^39: collisions are out of reach for any fleet.
  const offset = BigInt(`0x${digest.digest("hex").slice(0, 30)}`) % 10n ** 39n;
  return SYNTHETIC_SERIAL_FLOOR + offset;
}

/** True for a serial number made by syntheticSerial, never one the device cloud sent (see above). */
export function isSyntheticSerial(serialno: bigint): boolean {
  return serialno >= SYNTHETIC_SERIAL_FLOOR;
}
