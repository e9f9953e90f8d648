import type { CardRetention, RecorderHealth } from "./ports.js";
import { type CardRetentionSettings, matchesDevicePattern } from "./settings.js";

/**
 * A device's card retention as waiting evidence should trust it: the stage's days for the device's
 * type first (what the fleet's operator knows of its cards), else the audit's estimate from the
 * record maps (health-store.ts), never more than the stage's `maxDays`; undefined while neither is
 * known (the evidence function's own maximum applies then).
 */
export class RecorderCardRetention implements CardRetention {
  constructor(
    private readonly health: Pick<RecorderHealth, "device">,
    private readonly settings: CardRetentionSettings,
  ) {}

  async retentionDays(account: string, deviceid: string): Promise<number | undefined> {
    const type = this.settings.byDeviceType.find((candidate) =>
      candidate.deviceIds.some((pattern) => matchesDevicePattern(pattern, deviceid)),
    );
    if (type) return type.days;
    const estimated = (await this.health.device(account, deviceid))?.retentionDays;
    if (estimated === undefined) return undefined;
    return this.settings.maxDays === undefined ? estimated : Math.min(estimated, this.settings.maxDays);
  }
}
