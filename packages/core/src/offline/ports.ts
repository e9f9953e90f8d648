export type OfflineCheckStatus = "pending" | "confirmed" | "cancelled";

export interface OfflineCheck {
  serialno: bigint;
  status: OfflineCheckStatus;
  dueAtMs: number;
}

/**
 * One pending Offline confirmation per device and rule. Statuses move only from `pending`, so a
 * confirmation and a cancellation (an Online event) cannot both win.
 */
export interface OfflineChecks {
  /**
   * Records a pending check for the Offline event `serialno` unless a later event already decided
   * this device and rule; true if the check is pending for this event now (its message is due).
   */
  schedule(
    account: string,
    deviceid: string,
    ruleId: string,
    serialno: bigint,
    dueAtMs: number,
  ): Promise<boolean>;
  /** An Online event (serial `onlineSerialno`) cancels a pending check of an earlier Offline event. */
  cancelBefore(account: string, deviceid: string, ruleId: string, onlineSerialno: bigint): Promise<boolean>;
  get(account: string, deviceid: string, ruleId: string): Promise<OfflineCheck | undefined>;
  /** Ends the pending check of exactly this Offline event; false if it was no longer pending. */
  settle(
    account: string,
    deviceid: string,
    ruleId: string,
    serialno: bigint,
    status: Exclude<OfflineCheckStatus, "pending">,
  ): Promise<boolean>;
}
