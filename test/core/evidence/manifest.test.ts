import { manifestSchema } from "@fleet-alerts/core/evidence";
import { describe, expect, it } from "vitest";

/** A manifest as version 1 wrote it, before the track. */
const v1 = {
  version: 1,
  status: "complete",
  alert: { alertId: "east:1:shock", account: "east", ruleId: "shock", severity: "critical" },
  event: { serialno: "1", deviceid: "D1" },
  window: { startMs: 0, endMs: 60_000, secondsBefore: 30, secondsAfter: 30, utcOffset: "+0000" },
  coverage: { totalMinutes: 1, recordedMinutes: 1, partial: false, missing: [] },
  clips: [],
  software: { name: "fleet-alerts", version: "0.1.0" },
  createdAt: "2026-11-23T10:00:00.000Z",
};
const track = {
  status: "stored",
  key: "evidence/D1/2026/11/23/1/track.geojson",
  sha256: "a".repeat(64),
  bytes: 1234,
  points: 12,
};
const speed = { atEventKmh: 52.1, maxKmh: 80, distanceMeters: 812.4 };

describe("manifest versions", () => {
  it("still reads a version 1 manifest, which has no track", () => {
    expect(manifestSchema.parse(v1)).toMatchObject({ version: 1, skippedChannels: [] });
  });

  it("reads version 2 with its track and speed summary, stored or unavailable", () => {
    expect(manifestSchema.parse({ ...v1, version: 2, track, speed })).toMatchObject({ track, speed });
    const none = { atEventKmh: null, maxKmh: null, distanceMeters: null };
    const unavailable = { status: "unavailable", reason: "no-point-in-window" };
    expect(manifestSchema.parse({ ...v1, version: 2, track: unavailable, speed: none }).version).toBe(2);
  });

  it("refuses a version 2 manifest without its track, or with a reason it does not know", () => {
    expect(manifestSchema.safeParse({ ...v1, version: 2, speed }).success).toBe(false);
    const unknown = { status: "unavailable", reason: "lost" };
    expect(manifestSchema.safeParse({ ...v1, version: 2, track: unknown, speed }).success).toBe(false);
  });
});
