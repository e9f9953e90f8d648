/**
 * How long a device's SD card keeps its footage before its loop overwrites it: estimated from the
 * device's daily record maps (recorder/ builds and refreshes it), or set by the stage per device
 * type. Evidence that waits for an offline vehicle (evidence/) gives up when it has passed.
 */
export interface CardRetention {
  /** Whole days, or undefined while nothing is known of the device (the stage maximum applies). */
  retentionDays(account: string, deviceid: string): Promise<number | undefined>;
}
