import type { DeviceHealth, RecorderAuditCursor, RecorderHealth } from "@fleet-alerts/core/recorder";

/** The recorder audit's items in memory, as RecorderHealthStore keeps them: the cursor moves by version. */
export class FakeRecorderHealth implements RecorderHealth {
  readonly #cursors = new Map<string, RecorderAuditCursor>();
  readonly #devices = new Map<string, DeviceHealth>();
  /** Every saved audit, in order: how often each device was audited. */
  readonly audits: { account: string; deviceid: string; periodStartMs: number; status: string }[] = [];

  async cursor(account: string) {
    const cursor = this.#cursors.get(account);
    return cursor && { ...cursor };
  }

  async moveCursor(...[account, next, readVersion]: Parameters<RecorderHealth["moveCursor"]>) {
    if (this.#cursors.get(account)?.version !== readVersion) return false;
    this.#cursors.set(account, { ...next, version: (readVersion ?? 0) + 1 });
    return true;
  }

  async saveAudit(...[account, deviceid, audit]: Parameters<RecorderHealth["saveAudit"]>) {
    this.audits.push({ account, deviceid, periodStartMs: audit.periodStartMs, status: audit.status });
    this.#merge(account, deviceid, audit);
  }

  async saveRetention(...[account, deviceid, estimate, atMs]: Parameters<RecorderHealth["saveRetention"]>) {
    this.#merge(account, deviceid, {
      retentionDays: estimate.days,
      retentionAtLeast: estimate.atLeast,
      retentionEstimatedAtMs: atMs,
    });
  }

  async device(account: string, deviceid: string) {
    const item = this.#devices.get(`${account}\u0000${deviceid}`);
    return item && { ...item };
  }

  async *devices(account: string) {
    for (const [key, item] of [...this.#devices].sort(([a], [b]) => (a < b ? -1 : 1)))
      if (key.startsWith(`${account}\u0000`)) yield { ...item };
  }

  #merge(account: string, deviceid: string, fields: Partial<DeviceHealth>) {
    const key = `${account}\u0000${deviceid}`;
    this.#devices.set(key, { ...this.#devices.get(key), ...fields, deviceid });
  }
}
