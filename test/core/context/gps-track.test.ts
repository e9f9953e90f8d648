import {
  distanceMeters,
  motionOnTrack,
  pathMeters,
  positionOnTrack,
  type TrackPoint,
  trackOf,
} from "@fleet-alerts/core/context";
import type { GpsPoint } from "@fleet-alerts/core/devicecloud";
import { describe, expect, it } from "vitest";

const T0 = Date.parse("2026-01-05T12:00:00Z");
const METERS_PER_DEGREE_LAT = 111_195;

/** Northbound at `kmh`, a point every 5 s from T0, as /api/gps gives them (UNIX seconds). */
function northbound(count: number, kmh: (index: number) => number): GpsPoint[] {
  let lat = 48;
  return Array.from({ length: count }, (_, index) => {
    if (index > 0) lat += ((kmh(index) / 3.6) * 5) / METERS_PER_DEGREE_LAT;
    return { time: T0 / 1000 + index * 5, lat, lng: 11, speed: kmh(index), dir: 0 };
  });
}

describe("trackOf", () => {
  it("sorts, keeps one point per instant, drops 0/0 and converts the speed unit", () => {
    const points: GpsPoint[] = [
      { time: 20, lat: 1, lng: 1, speed: 10, dir: 0 },
      { time: 10, lat: 0, lng: 0, speed: 10, dir: 0 },
      { time: 5, lat: 2, lng: 2, speed: 10, dir: 90 },
      { time: 5, lat: 3, lng: 3, speed: 10, dir: 90 },
    ];
    const track = trackOf(points, "mph");
    expect(track.map((point) => point.timeMs)).toEqual([5000, 20_000]);
    expect(track[0]).toMatchObject({ lat: 3, lng: 3, headingDeg: 90 });
    expect(track[0]?.speedKmh).toBeCloseTo(16.09344, 5);
  });
});

describe("positionOnTrack", () => {
  const track = trackOf(
    northbound(5, () => 100),
    "km/h",
  );

  it("interpolates between the points either side, to within a metre at 100 km/h", () => {
    const at = positionOnTrack(track, T0 + 7_000) as NonNullable<ReturnType<typeof positionOnTrack>>;
    expect(at.method).toBe("interpolated");
    expect(at.fixMs).toBe(T0 + 7_000);
    // 7 s at 100 km/h from the first point: 194.4 m north.
    expect(distanceMeters({ lat: 48 + 194.44 / METERS_PER_DEGREE_LAT, lng: 11 }, at)).toBeLessThan(1);
  });

  it("takes a point at the very instant as it is", () => {
    expect(positionOnTrack(track, T0 + 10_000)).toMatchObject({ lat: track[2]?.lat, method: "interpolated" });
  });

  it("takes the nearest point within 30 s when only one side exists", () => {
    expect(positionOnTrack(track, T0 + 20_000 + 30_000)).toMatchObject({
      method: "nearest",
      fixMs: T0 + 20_000,
    });
    expect(positionOnTrack(track, T0 - 12_000)).toMatchObject({ method: "nearest", fixMs: T0 });
    expect(positionOnTrack(track, T0 + 20_000 + 30_001)).toBeUndefined();
    expect(positionOnTrack([], T0)).toBeUndefined();
  });

  it("does not interpolate across a gap of over a minute, but may take a near point", () => {
    const gap: TrackPoint[] = [
      { timeMs: T0, lat: 48, lng: 11, speedKmh: 50, headingDeg: 0 },
      { timeMs: T0 + 120_000, lat: 48.1, lng: 11, speedKmh: 50, headingDeg: 0 },
    ];
    expect(positionOnTrack(gap, T0 + 60_000)).toBeUndefined();
    expect(positionOnTrack(gap, T0 + 20_000)).toMatchObject({ lat: 48, method: "nearest" });
  });
});

describe("motionOnTrack", () => {
  // Accelerating across a limit of 80: 70, 78, 86, 94, 102 km/h.
  const track = trackOf(
    northbound(5, (index) => 70 + index * 8),
    "km/h",
  );

  it("for an OverSpeed, takes the highest speed within one interval, not the next acceleration", () => {
    // Between samples: the one after the event (86) is within reach, the next (94) is not.
    expect(motionOnTrack(track, T0 + 8_000, true)).toEqual({ speedKmh: 86, headingDeg: 0 });
    expect(motionOnTrack(track, T0 + 5_500, true)?.speedKmh).toBe(86);
    // At a sample: that sample's speed, not the next one's, a whole interval later.
    expect(motionOnTrack(track, T0 + 10_000, true)?.speedKmh).toBe(86);
  });

  it("otherwise takes the nearest point's speed and heading", () => {
    expect(motionOnTrack(track, T0 + 6_000, false)).toEqual({ speedKmh: 78, headingDeg: 0 });
  });

  it("knows nothing beyond the tolerance", () => {
    expect(motionOnTrack(track, T0 + 60_000, true)).toBeUndefined();
  });
});

describe("pathMeters", () => {
  it("measures a straight northbound track within 1%", () => {
    const track = trackOf(
      northbound(13, () => 72),
      "km/h",
    );
    // 60 s at 72 km/h = 1200 m.
    expect(pathMeters(track)).toBeGreaterThan(1188);
    expect(pathMeters(track)).toBeLessThan(1212);
  });
});
