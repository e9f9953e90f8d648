import type { AlertKey } from "../alerts/alert-item.js";
import type { Acknowledgement, AlertRecord } from "../alerts/record.js";

export type { AlertKey };

/**
 * The escalation state of alert records. Every change is a conditional write on the one item, so
 * that two deliveries of a job cannot both send a level.
 */
export interface Escalations {
  get(alert: AlertKey): Promise<AlertRecord | undefined>;
  /**
   * Claims `level` at `atMs` (wall clock) if the alert is unacknowledged and no level as high is
   * claimed; true if claimed.
   */
  claimLevel(alert: AlertKey, level: number, atMs: number): Promise<boolean>;
  /**
   * Takes over a claim nobody finished (claimed at `claimedAtMs`, not sent): true for one caller
   * only, and only while the alert is unacknowledged.
   */
  takeOverLevel(alert: AlertKey, level: number, claimedAtMs: number, atMs: number): Promise<boolean>;
  /** The topic accepted the level's message. */
  markLevelSent(alert: AlertKey, level: number): Promise<void>;
}

export type AcknowledgeOutcome = { recorded: true } | { recorded: false; existing: Acknowledgement };

/** Acknowledgements of alerts: the first one is recorded, later ones are told about it. */
export interface Acknowledgements {
  /** Throws if there is no such alert. */
  acknowledge(alert: AlertKey, acknowledgement: Acknowledgement): Promise<AcknowledgeOutcome>;
}
