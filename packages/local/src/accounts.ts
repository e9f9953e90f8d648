/**
 * The local mode's device-cloud accounts: by default two simulated fleets, "north" and "south",
 * each its own simulator (its own devices, events and credentials), cursor and lock, as two
 * customers' or regions' accounts are in a deployed stage.
 */
import { deviceCloudSecretNames } from "@fleet-alerts/core/config";

/** The names simulated fleets take, in order; `--accounts <count>` takes the first ones. */
export const SIMULATED_ACCOUNT_IDS = ["north", "south", "east", "west"] as const;
export const DEFAULT_ACCOUNT_COUNT = 2;
/** The one account of a real device cloud (`--base-url`). */
export const REAL_ACCOUNT_ID = "cloud";

/** The ids of `count` simulated fleets. */
export function simulatedAccountIds(count: number): string[] {
  if (!Number.isInteger(count) || count < 1 || count > SIMULATED_ACCOUNT_IDS.length) {
    throw new RangeError(`between 1 and ${SIMULATED_ACCOUNT_IDS.length} simulated accounts`);
  }
  return SIMULATED_ACCOUNT_IDS.slice(0, count);
}

/**
 * The variable that holds an account's password, named as its SST secret is
 * (DEVICE_CLOUD_<ID>_PASSWORD, ID upper-cased, '-' as '_'): each account its own credentials.
 */
export function passwordEnvOf(accountId: string): string {
  return deviceCloudSecretNames(accountId).password;
}
