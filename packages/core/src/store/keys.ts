/**
 * The single table's keys (each item is described in docs/design/table.md). Everything of an
 * account shares its partition, so that one Query reads a range of it.
 */

// Sort keys compare as strings: zero-padded to a fixed width, serial numbers sort as integers.
const SERIAL_WIDTH = 40;

export function sortableSerial(serialno: bigint): string {
  const digits = serialno.toString();
  if (digits.length > SERIAL_WIDTH) throw new RangeError(`serialno has more than ${SERIAL_WIDTH} digits`);
  return digits.padStart(SERIAL_WIDTH, "0");
}

// Summary numbers count up from 1, one per catch-up: ten digits sort them as integers for ever.
function sortableSummary(summary: number): string {
  return String(summary).padStart(10, "0");
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
  /** The publication item of the chunk read after the cursor `from` (alerts/publication-store.ts). */
  publication: (from: bigint) => `PUBLICATION#${sortableSerial(from)}`,
  ruleState: (deviceid: string, ruleId: string) => `STATE#${ruleId}#${deviceid}`,
  ruleStatePrefix: "STATE#",
  /** The fence a poll writes before it saves its rule states in a batch (poller/rule-state-store.ts). */
  ruleStatesFence: "RULESTATES",
  offlineCheck: (deviceid: string, ruleId: string) => `OFFLINE#${ruleId}#${deviceid}`,
  rejected: (reference: string) => `REJECTED#${reference}`,
  /** A record one step set aside (setaside/): by serial, rule and step (and target), so a replay finds it. */
  setAside: (serialno: bigint, ruleId: string, step: string, targetId?: string) =>
    `SETASIDE#${sortableSerial(serialno)}#${ruleId}#${step}${targetId === undefined ? "" : `#${targetId}`}`,
  setAsidePrefix: "SETASIDE#",
  /**
   * The partition of an account's set-aside records ops are still owed a notice of: one item per
   * record, its sort key the record's, from before the record is kept until ops are told
   * (setaside/set-aside-store.ts). A partition of its own, so that deleting there can be granted alone.
   */
  setAsideOwed: (account: string) => `SETASIDEOWED#${account}`,
  /** Where the account's stale summaries stand: the one being added to, one closed and still being sent. */
  staleSummary: "STALESUMMARY",
  /** One group's tally of stale alerts in the account's summary number `summary` (notices/stale-store.ts). */
  staleTally: (summary: number, group: string) => `STALESUMMARY#${sortableSummary(summary)}#${group}`,
  staleTallyPrefix: (summary: number) => `STALESUMMARY#${sortableSummary(summary)}#`,
  /**
   * An evidence job parked until its device comes online (evidence/parked-store.ts), by device then
   * alert: one Query reads a device's jobs. `deviceSegment` is the device id with no `#` in it
   * (evidence/layout.ts `deviceKeySegment`), so that one device's prefix is never another's.
   */
  parkedEvidence: (deviceSegment: string, serialno: bigint, ruleId: string) =>
    `PARKED#${deviceSegment}#${sortableSerial(serialno)}#${ruleId}`,
  parkedEvidencePrefix: (deviceSegment?: string) =>
    deviceSegment === undefined ? "PARKED#" : `PARKED#${deviceSegment}#`,
  /** The claim of an alert's one "footage at risk" notice (notices/deliver-once.ts). */
  atRiskNotice: (serialno: bigint, ruleId: string) => `ATRISK#${sortableSerial(serialno)}#${ruleId}`,
  /** A share link's lookup item, its own partition: a link is resolved knowing nothing but its token. */
  share: (tokenId: string) => `SHARE#${tokenId}`,
  shareSort: "SHARE",
  /** An alert's share links as listed, in its account's partition; the prefix ends at the rule id. */
  shareListingPrefix: (serialno: bigint, ruleId: string) => `SHARE#${sortableSerial(serialno)}#${ruleId}#`,
  /** An alert's access audit entries; the prefix ends at the rule id, the rest sorts by time. */
  auditPrefix: (serialno: bigint, ruleId: string) => `AUDIT#${sortableSerial(serialno)}#${ruleId}#`,

  // ---- the recorder audit (packages/core/src/recorder), in the account's partition ----
  /** Where the account's audit stands: the period and the last device done (recorder/health-store.ts). */
  recorderAuditCursor: "RECORDERAUDIT",
  /** A device's latest audit and its card's estimated retention. */
  recorderDevice: (deviceid: string) => `RECORDER#${deviceid}`,
  recorderDevicePrefix: "RECORDER#",

  // ---- routing (packages/core/src/routing): a group's and a recipient's items ----
  /** A recipient group's partition: its held alerts, its digest index, its summary and digest claims. */
  group: (name: string) => `GROUP#${name}`,
  /** An alert held by the group's quiet hours until `windowEndIso`; the prefix sorts by window end. */
  held: (windowEndIso: string, alertId: string) => `HELD#${windowEndIso}#${alertId}`,
  heldPrefix: "HELD#",
  /** The claim of the one summary of the held alerts of the window ending at `windowEndIso`. */
  quietSummary: (windowEndIso: string) => `QUIETSUMMARY#${windowEndIso}`,
  /** One per alert routed to the group (delivered or held), by publication time: the digest's index. */
  routed: (atIso: string, alertId: string) => `ROUTED#${atIso}#${alertId}`,
  routedPrefix: "ROUTED#",
  /** The claim of the group's digest of local date `date` (YYYY-MM-DD). */
  digest: (date: string) => `DIGEST#${date}`,
  /** An SMS recipient's partition (its recipient id, routing/recipients.ts). */
  recipient: (recipientId: string) => `RECIPIENT#${recipientId}`,
  /** A recipient's (or, in the account's partition, a device's) texts of one UTC clock hour. */
  smsHour: (hourIso: string) => `SMSHOUR#${hourIso}`,
  deviceSmsHour: (hourIso: string, deviceid: string) => `SMSHOUR#${hourIso}#${deviceid}`,

  // ---- webhook, Slack and Teams targets (packages/core/src/webhooks) ----
  /** A target's partition: its state item and its deliveries. */
  target: (targetId: string) => `TARGET#${targetId}`,
  /** The target's state: `disabledAt` and `reason` once it answered 410 Gone. */
  targetState: "TARGET",
  /** The delivery of one alert to the target: claimed before the POST, marked after a 2xx. */
  webhookDelivery: (alertId: string) => `DELIVERY#${alertId}`,
};

/** Seconds since the epoch, the unit of DynamoDB's TTL attribute. */
export function expiresAfterDays(nowMs: number, days: number): number {
  return Math.floor(nowMs / 1000) + days * 86_400;
}
