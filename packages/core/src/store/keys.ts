/**
 * The single table's keys (each item is described in docs/ARCHITECTURE.md). Everything of an
 * account shares its partition, so that one Query reads a range of it.
 */

// Sort keys compare as strings: zero-padded to a fixed width, serial numbers sort as integers.
const SERIAL_WIDTH = 40;

export function sortableSerial(serialno: bigint): string {
  const digits = serialno.toString();
  if (digits.length > SERIAL_WIDTH) throw new RangeError(`serialno has more than ${SERIAL_WIDTH} digits`);
  return digits.padStart(SERIAL_WIDTH, "0");
}

export const keys = {
  account: (account: string) => `ACCOUNT#${account}`,
  cursor: "CURSOR",
  lock: "LOCK",
  alert: (serialno: bigint, ruleId: string) => `ALERT#${sortableSerial(serialno)}#${ruleId}`,
  /** Bounds of the alert keys of serial numbers in (after, through]. */
  alertRange: (after: bigint, through: bigint) => ({
    from: `ALERT#${sortableSerial(after + 1n)}#`,
    to: `ALERT#${sortableSerial(through)}#~`, // "~" sorts after every rule id character
  }),
  ruleState: (deviceid: string, ruleId: string) => `STATE#${ruleId}#${deviceid}`,
  ruleStatePrefix: "STATE#",
  offlineCheck: (deviceid: string, ruleId: string) => `OFFLINE#${ruleId}#${deviceid}`,
  rejected: (reference: string) => `REJECTED#${reference}`,
  /** A share link's lookup item, its own partition: a link is resolved knowing nothing but its token. */
  share: (tokenId: string) => `SHARE#${tokenId}`,
  shareSort: "SHARE",
  /** An alert's share links as listed, in its account's partition; the prefix ends at the rule id. */
  shareListingPrefix: (serialno: bigint, ruleId: string) => `SHARE#${sortableSerial(serialno)}#${ruleId}#`,
  /** An alert's access audit entries; the prefix ends at the rule id, the rest sorts by time. */
  auditPrefix: (serialno: bigint, ruleId: string) => `AUDIT#${sortableSerial(serialno)}#${ruleId}#`,
};

/** Seconds since the epoch, the unit of DynamoDB's TTL attribute. */
export function expiresAfterDays(nowMs: number, days: number): number {
  return Math.floor(nowMs / 1000) + days * 86_400;
}
