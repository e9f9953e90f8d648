import type { SetAsideEntry, StoredSetAside } from "./entry.js";

/** Where set-aside records are kept: once each, with whether ops have been told. */
export interface SetAsideRecords {
  /** Keeps each entry once (a replay's is the same entry); returns those ops have not been told of. */
  add(entries: readonly SetAsideEntry[], nowMs: number): Promise<StoredSetAside[]>;
  markTold(entries: readonly SetAsideEntry[], nowMs: number): Promise<void>;
  /** An account's entries, newest serial first, at most `limit`. */
  list(account: string, limit: number): Promise<StoredSetAside[]>;
}

/** The ops group's channel (the stage's ops topic, which `opsEmails` subscribe to). */
export interface OpsChannel {
  tell(notice: OpsNotice): Promise<void>;
}

export interface OpsNotice {
  /** Printable ASCII on one line, under SNS's 100 characters. */
  subject: string;
  text: string;
}
