import { type TrackPoint, trackOf } from "@fleet-alerts/core/context";
import { EVENT_CODES } from "@fleet-alerts/core/devicecloud";
import { eventFix, speedSummary } from "@fleet-alerts/core/evidence";
import { describe, expect, it } from "vitest";

const T0 = Date.parse("2026-11-23T10:00:00.000Z");
/** One degree of latitude along a meridian, on the mean earth sphere (IUGG), in metres. */
const METRES_PER_DEGREE_LATITUDE = 111_195.08;

/** Due north along 8.5° E, a point every 5 s, 0.001° (111 m) apart: 80 km/h. */
function northbound(count: number, speedKmh = 80): TrackPoint[] {
  return Array.from({ length: count }, (_, i) => ({
    timeMs: T0 + i * 5_000,
    lat: 47 + i * 0.001,
    lng: 8.5,
    speedKmh,
    headingDeg: 0,
  }));
}

describe("the vehicle at the event", () => {
  it("interpolates the position between the points either side of the event time", () => {
    const fix = eventFix({ appdevid: EVENT_CODES.GSensor }, northbound(13), T0 + 12_500);
    expect(fix.position).toMatchObject({ lng: 8.5, source: "track", fixMs: T0 + 12_500 });
    expect(fix.position?.lat).toBeCloseTo(47.0025, 9);
    expect(fix).toMatchObject({ timeMs: T0 + 12_500, speedKmh: 80, headingDeg: 0 });
  });

  it("takes the event's own plausible coordinates first (vehiclex is the longitude)", () => {
    const event = { appdevid: EVENT_CODES.GSensor, vehiclex: "8.6", vehicley: 47.1 };
    expect(eventFix(event, northbound(13), T0 + 12_500).position).toEqual({
      lat: 47.1,
      lng: 8.6,
      source: "event",
      fixMs: T0 + 12_500,
    });
    // 0/0 is a receiver without a fix, not a position: the track is used.
    const noFix = { appdevid: EVENT_CODES.GSensor, vehiclex: 0, vehicley: 0 };
    expect(eventFix(noFix, northbound(13), T0 + 12_500).position?.source).toBe("track");
  });

  it("stands the nearest point in, with its own time, when no point lies on one side", () => {
    const fix = eventFix({ appdevid: EVENT_CODES.GSensor }, northbound(3), T0 + 20_000);
    expect(fix.position).toMatchObject({ lat: 47.002, source: "track", fixMs: T0 + 10_000 });
  });

  it("places nothing and gives no speed when the track is too far from the event", () => {
    expect(eventFix({ appdevid: EVENT_CODES.GSensor }, northbound(3), T0 + 120_000)).toEqual({
      timeMs: T0 + 120_000,
    });
  });

  it("gives an OverSpeed the highest speed within one sample interval, another event the nearest point's", () => {
    const track = northbound(5).map((point, i) => ({ ...point, speedKmh: [70, 78, 84, 95, 60][i] ?? 0 }));
    // The event at +8 s: nearest point +10 s (84 km/h); the sample at +10 s is the highest within 5 s (half-open).
    expect(eventFix({ appdevid: EVENT_CODES.OverSpeed }, track, T0 + 8_000).speedKmh).toBe(84);
    expect(eventFix({ appdevid: EVENT_CODES.OverSpeed }, track, T0 + 12_000).speedKmh).toBe(95);
    expect(eventFix({ appdevid: EVENT_CODES.GSensor }, track, T0 + 12_000).speedKmh).toBe(84);
  });
});

describe("the speed summary", () => {
  it("measures a known straight track within 1%, and takes the highest speed over the window", () => {
    const track = northbound(13).map((point, i) => ({ ...point, speedKmh: i === 7 ? 93.456 : 80 }));
    const summary = speedSummary(track, eventFix({ appdevid: EVENT_CODES.GSensor }, track, T0 + 30_000));
    const expected = 12 * 0.001 * METRES_PER_DEGREE_LATITUDE; // 1334.3 m
    expect(Math.abs((summary.distanceMeters ?? 0) - expected) / expected).toBeLessThan(0.01);
    expect(summary).toMatchObject({ atEventKmh: 80, maxKmh: 93.46 });
  });

  it("gives a single point no distance, and its speed", () => {
    const [point] = northbound(1, 42);
    const track = [point as TrackPoint];
    expect(speedSummary(track, eventFix({ appdevid: 16 }, track, T0 + 2_000))).toEqual({
      atEventKmh: 42,
      maxKmh: 42,
      distanceMeters: 0,
    });
  });

  it("has no figures without a track", () => {
    expect(speedSummary([], { timeMs: T0 })).toEqual({
      atEventKmh: null,
      maxKmh: null,
      distanceMeters: null,
    });
  });

  it("is in km/h whatever unit the account's /api/gps speaks", () => {
    const points = [0, 5, 10].map((s) => ({
      lat: 47 + s / 10_000,
      lng: 8.5,
      speed: 50,
      dir: 0,
      time: T0 / 1000 + s,
    }));
    const track = trackOf(points, "mph");
    const summary = speedSummary(track, eventFix({ appdevid: EVENT_CODES.GSensor }, track, T0 + 5_000));
    expect(summary).toMatchObject({ atEventKmh: 80.47, maxKmh: 80.47 });
    expect(speedSummary(trackOf(points, "knots"), { timeMs: T0 }).maxKmh).toBe(92.6);
  });
});
