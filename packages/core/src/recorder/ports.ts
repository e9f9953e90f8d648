import type { DeviceHealth, DeviceHealthAudit, RecorderAuditCursor } from "./health-items.js";
import type { RetentionEstimate } from "./retention-estimate.js";

/**
 * How long a device's SD card keeps its footage before its loop overwrites it: estimated from the
 * device's daily record maps (recorder/ builds and refreshes it), or set by the stage per device
 * type. Evidence that waits for an offline vehicle (evidence/) gives up when it has passed.
 */
export interface CardRetention {
  /** Whole days, or undefined while nothing is known of the device (the stage maximum applies). */
  retentionDays(account: string, deviceid: string): Promise<number | undefined>;
}

/** What the recorder audit keeps per account and device (health-store.ts). */
export interface RecorderHealth {
  /** Where the account's audit stands: the period, and the last device done in it. */
  cursor(account: string): Promise<RecorderAuditCursor | undefined>;
  /**
   * Moves the cursor, if it is still at `readVersion` (undefined: none yet); false when another run
   * moved it first (that run goes on, this one stops).
   */
  moveCursor(
    account: string,
    next: Omit<RecorderAuditCursor, "version">,
    readVersion: number | undefined,
  ): Promise<boolean>;
  /** The device's latest audit (its gaps' alerts are raised by then). */
  saveAudit(account: string, deviceid: string, audit: DeviceHealthAudit): Promise<void>;
  saveRetention(account: string, deviceid: string, estimate: RetentionEstimate, atMs: number): Promise<void>;
  device(account: string, deviceid: string): Promise<DeviceHealth | undefined>;
  /** Every device of the account the audit has seen, page by page (the digest's summary). */
  devices(account: string): AsyncIterable<DeviceHealth>;
}
