import type { Group, GroupsFile } from "../routing/groups-schema.js";
import { recipientId } from "../routing/recipients.js";
import type { SetAside } from "../setaside/set-aside.js";
import type { TableRef } from "../store/dynamo.js";
import type { DeliveryDependencies } from "./deliver-once.js";
import type { LinkOf } from "./links.js";
import type { RecorderSummarySource } from "./recorder-summary.js";

export interface NoticesDependencies extends DeliveryDependencies {
  table: TableRef;
  groups: GroupsFile;
  /** FLEET_TIME_ZONE: a group's zone unless it names its own. */
  fleetTimeZone: string;
  /** Incident links in the notices; absent without PUBLIC_BASE_URL and SHARE_LINK_SECRET. */
  linkOf?: LinkOf;
  /** The recorder audit's results, for the digest's recorder summary; absent: no summary. */
  recorder?: RecorderSummarySource;
  /**
   * The stage's set-aside records and accounts, for the sweep of notices to ops a crash left owed
   * (setaside/set-aside.ts `tellOwed`); absent without an ops topic or the accounts.
   */
  setAsideSweep?: { setAside: SetAside; accounts: readonly string[] };
}

/**
 * A routed or held item is written just after the poller decided on it, so a run right at a
 * window's end, a digest's time or an hour's end could miss one still being written: each notice
 * waits this long past its instant.
 */
export const SETTLE_MS = 2 * 60_000;

/** Claims outlive what they guard against (a second run within the look-back), then expire. */
export const CLAIM_RETENTION_DAYS = 8;

export function groupZone(group: Group, fleetTimeZone: string): string {
  return group.timeZone ?? fleetTimeZone;
}

/** The group's email recipients as ids, each once. */
export function emailRecipients(group: Group): string[] {
  return [...new Set(group.email.map((address) => recipientId("email", address)))];
}
