import type { SetAsideEntry, StoredSetAside } from "./entry.js";

/** Where set-aside records are kept: once each, with whether ops have been told. */
export interface SetAsideRecords {
  /**
   * Notes each entry as owed to ops, before it is kept: from then until ops are told, `owed` finds
   * it, so that a notice whose teller died is told by the sweep.
   */
  owe(entries: readonly SetAsideEntry[]): Promise<void>;
  /** Keeps each entry once (a replay's is the same entry); returns those ops have not been told of. */
  add(entries: readonly SetAsideEntry[], nowMs: number): Promise<StoredSetAside[]>;
  /**
   * Claims telling ops of each entry, at `atMs` on the wall clock: one untold and unclaimed, or whose
   * claim is `leaseMs` old (its teller died). Each entry is claimed by one caller; returns this one's.
   */
  claimTelling(entries: readonly SetAsideEntry[], atMs: number, leaseMs: number): Promise<StoredSetAside[]>;
  /** Ops were told: marked on each entry, which is no longer owed. */
  markTold(entries: readonly SetAsideEntry[], nowMs: number): Promise<void>;
  /** An account's entries still owed to ops, at most `limit` (in serial order). */
  owed(account: string, limit: number): Promise<SetAsideEntry[]>;
  /** An account's entries, newest serial first, at most `limit`. */
  list(account: string, limit: number): Promise<StoredSetAside[]>;
}

/** The ops group's channel (the stage's ops topic, which `opsEmails` subscribe to). */
export interface OpsChannel {
  tell(notice: OpsNotice): Promise<void>;
}

export interface OpsNotice {
  /**
   * The notice's stable id, its `notice_id` message attribute: the same when it is told again after
   * a take-over, so that a subscriber can drop the repeat. Ids only, never a device's text.
   */
  id: string;
  /** Printable ASCII on one line, under SNS's 100 characters. */
  subject: string;
  text: string;
}
