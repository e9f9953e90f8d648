import type { OfflineCheck, OfflineChecks } from "@fleet-alerts/core/offline";

/** Offline checks in memory, as OfflineCheckStore keeps them: statuses move only from pending. */
export class FakeOfflineChecks implements OfflineChecks {
  readonly #checks = new Map<string, OfflineCheck>();

  async schedule(...[account, deviceid, ruleId, serialno, dueAtMs]: Parameters<OfflineChecks["schedule"]>) {
    const check = this.#checks.get(keyOf(account, deviceid, ruleId));
    const free =
      !check || check.serialno < serialno || (check.serialno === serialno && check.status === "pending");
    if (free) this.#checks.set(keyOf(account, deviceid, ruleId), { serialno, status: "pending", dueAtMs });
    return free;
  }

  async cancelBefore(
    account: string,
    deviceid: string,
    ruleId: string,
    onlineSerialno: bigint,
  ): Promise<boolean> {
    const check = this.#checks.get(keyOf(account, deviceid, ruleId));
    if (check?.status !== "pending" || check.serialno >= onlineSerialno) return false;
    check.status = "cancelled";
    return true;
  }

  async get(account: string, deviceid: string, ruleId: string): Promise<OfflineCheck | undefined> {
    const check = this.#checks.get(keyOf(account, deviceid, ruleId));
    return check && { ...check };
  }

  async settle(...[account, deviceid, ruleId, serialno, status]: Parameters<OfflineChecks["settle"]>) {
    const check = this.#checks.get(keyOf(account, deviceid, ruleId));
    if (check?.status !== "pending" || check.serialno !== serialno) return false;
    check.status = status;
    return true;
  }
}

const keyOf = (account: string, deviceid: string, ruleId: string) => `${account}/${ruleId}/${deviceid}`;
