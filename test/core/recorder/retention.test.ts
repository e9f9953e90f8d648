import { RecorderCardRetention } from "@fleet-alerts/core/recorder";
import { describe, expect, it } from "vitest";
import {
  estimateRetention,
  MAX_RETENTION_CALLS,
  RETENTION_PROBE_MAX_DAYS,
} from "../../../packages/core/src/recorder/retention-estimate.js";
import { FakeRecorderHealth } from "../../support/fakes/index.js";

/** A card holding `days` days (0 .. days-1 back); `parked` days back nothing was driven. */
function card(days: number, parked: (daysBack: number) => boolean = () => false) {
  let calls = 0;
  const recorded = async (daysBack: number) => {
    calls++;
    return daysBack < days && !parked(daysBack);
  };
  return { recorded, calls: () => calls };
}

describe("a card's retention estimated from record maps", () => {
  it.each([1, 2, 3, 7, 13, 30, 64, 65, 89])("finds %i days with a bounded number of maps", async (days) => {
    const probed = card(days);
    expect(await estimateRetention(probed.recorded)).toEqual({ days, atLeast: false });
    expect(probed.calls()).toBeLessThanOrEqual(MAX_RETENTION_CALLS);
  });

  it("is not fooled by weekends parked within the card's days", async () => {
    // Saturdays and Sundays standing still: days 5, 6, 12, 13, ... back.
    const weekends = card(30, (daysBack) => daysBack % 7 === 5 || daysBack % 7 === 6);
    expect(await estimateRetention(weekends.recorded)).toEqual({ days: 30, atLeast: false });
  });

  it("says 'at least' past the probe's reach, and nothing when the device recorded nothing lately", async () => {
    expect(await estimateRetention(card(400).recorded)).toEqual({
      days: RETENTION_PROBE_MAX_DAYS,
      atLeast: true,
    });
    expect(await estimateRetention(card(10, (daysBack) => daysBack < 3).recorded)).toBeUndefined();
  });
});

describe("RecorderCardRetention (the CardRetention port)", () => {
  const settings = {
    byDeviceType: [{ name: "MDVR-4 with 64 GB", deviceIds: ["M4-*", "0099"], days: 12 }],
    maxDays: 30,
  };

  it("takes the stage's days for a device of a named type first, else the estimate, capped", async () => {
    const health = new FakeRecorderHealth();
    await health.saveRetention("north", "M4-17", { days: 40, atLeast: false }, 0);
    await health.saveRetention("north", "X-1", { days: 45, atLeast: false }, 0);
    await health.saveRetention("north", "X-2", { days: 9, atLeast: false }, 0);
    const retention = new RecorderCardRetention(health, settings);
    expect(await retention.retentionDays("north", "M4-17")).toBe(12);
    expect(await retention.retentionDays("north", "0099")).toBe(12);
    expect(await retention.retentionDays("north", "X-1")).toBe(30);
    expect(await retention.retentionDays("north", "X-2")).toBe(9);
    expect(await retention.retentionDays("north", "X-3")).toBeUndefined();
    expect(await retention.retentionDays("south", "X-2")).toBeUndefined();
  });
});
