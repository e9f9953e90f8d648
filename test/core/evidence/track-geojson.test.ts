import { type TrackPoint, trackOf } from "@fleet-alerts/core/context";
import { EVENT_CODES } from "@fleet-alerts/core/devicecloud";
import { eventFix, trackBody, trackGeoJson, trackGeoJsonSchema } from "@fleet-alerts/core/evidence";
import { check } from "@placemarkio/check-geojson";
import { describe, expect, it } from "vitest";

const T0 = Date.parse("2026-11-23T10:00:00.000Z");
const GSENSOR = { appdevid: EVENT_CODES.GSensor };

/** Points every 5 s heading north-east, with more decimals than a GPS gives. */
function track(count: number): TrackPoint[] {
  return Array.from({ length: count }, (_, i) => ({
    timeMs: T0 + i * 5_000,
    lat: 47.123456789 + i * 0.0005,
    lng: 8.987654321 + i * 0.0005,
    speedKmh: 60 + i / 3,
    headingDeg: 45.123,
  }));
}

/** The collection as stored, checked as RFC 7946 GeoJSON (check throws on what is not) and by our schema. */
function stored(points: TrackPoint[], event: Record<string, unknown>, eventMs: number) {
  const body = trackBody(trackGeoJson("D1", points, eventFix(event, points, eventMs)));
  check(body);
  expect(body.endsWith("}\n")).toBe(true);
  return trackGeoJsonSchema.parse(JSON.parse(body));
}

describe("track.geojson", () => {
  it("is a LineString of the points, [lng, lat] to 6 decimals, with times, speeds and headings aligned", () => {
    const collection = stored(track(4), GSENSOR, T0 + 8_000);
    const [line, event] = collection.features;
    expect(line?.geometry).toEqual({
      type: "LineString",
      coordinates: [
        [8.987654, 47.123457],
        [8.988154, 47.123957],
        [8.988654, 47.124457],
        [8.989154, 47.124957],
      ],
    });
    expect(line?.properties).toEqual({
      kind: "track",
      deviceid: "D1",
      times: [
        "2026-11-23T10:00:00.000Z",
        "2026-11-23T10:00:05.000Z",
        "2026-11-23T10:00:10.000Z",
        "2026-11-23T10:00:15.000Z",
      ],
      speedsKmh: [60, 60.33, 60.67, 61],
      headingsDeg: [45.12, 45.12, 45.12, 45.12],
    });
    // The event lies 3/5 of the way from the second point to the third; its speed is the nearest point's.
    expect(event).toEqual({
      type: "Feature",
      geometry: { type: "Point", coordinates: [8.988454, 47.124257] },
      properties: {
        kind: "event",
        time: "2026-11-23T10:00:08.000Z",
        fixTime: "2026-11-23T10:00:08.000Z",
        source: "track",
        speedKmh: 60.67,
        headingDeg: 45.12,
      },
    });
  });

  it("never writes more than 6 decimals of a coordinate", () => {
    const collection = stored(track(20), GSENSOR, T0 + 3_000);
    const numbers = collection.features.flatMap(({ geometry }) =>
      geometry.type === "LineString" ? geometry.coordinates.flat() : geometry.coordinates,
    );
    expect(numbers).toHaveLength(42);
    for (const number of numbers) expect(String(number).split(".")[1]?.length ?? 0).toBeLessThanOrEqual(6);
  });

  it("puts the event where its own coordinates say, when they are plausible", () => {
    const collection = stored(track(4), { ...GSENSOR, vehiclex: 8.5, vehicley: "47.25" }, T0 + 8_000);
    expect(collection.features[1]).toMatchObject({
      geometry: { type: "Point", coordinates: [8.5, 47.25] },
      properties: { source: "event", speedKmh: 60.67 },
    });
  });

  it("makes a single point a Point feature of kind track (a LineString needs two positions)", () => {
    const collection = stored(track(1), GSENSOR, T0 + 2_000);
    expect(collection.features).toEqual([
      {
        type: "Feature",
        geometry: { type: "Point", coordinates: [8.987654, 47.123457] },
        properties: {
          kind: "track",
          deviceid: "D1",
          times: ["2026-11-23T10:00:00.000Z"],
          speedsKmh: [60],
          headingsDeg: [45.12],
        },
      },
      {
        type: "Feature",
        geometry: { type: "Point", coordinates: [8.987654, 47.123457] },
        properties: {
          kind: "event",
          time: "2026-11-23T10:00:02.000Z",
          fixTime: "2026-11-23T10:00:00.000Z",
          source: "track",
          speedKmh: 60,
          headingDeg: 45.12,
        },
      },
    ]);
  });

  it("leaves the event out when nothing places it", () => {
    const collection = stored(track(3), GSENSOR, T0 + 300_000);
    expect(collection.features.map((feature) => feature.properties.kind)).toEqual(["track"]);
  });

  it("holds speeds in km/h, converted from the account's unit", () => {
    const points = [0, 5].map((s) => ({
      lat: 47,
      lng: 8.5 + s / 10_000,
      speed: 10,
      dir: 90,
      time: T0 / 1000 + s,
    }));
    const collection = stored(trackOf(points, "m/s"), GSENSOR, T0 + 2_000);
    expect(collection.features[0]?.properties).toMatchObject({ speedsKmh: [36, 36] });
  });

  it("gives the same bytes for the same track, so that a replay stores what it stored before", () => {
    const body = () => trackBody(trackGeoJson("D1", track(5), eventFix(GSENSOR, track(5), T0 + 1_000)));
    expect(body()).toBe(body());
  });
});
