import * as z from "zod";
import type { TrackPoint } from "../context/gps-track.js";
import { roundTo } from "../rounding.js";
import type { EventFix } from "./track-summary.js";

/** [longitude, latitude], RFC 7946's order, to 6 decimals (about 0.1 m). */
const positionSchema = z.tuple([z.number(), z.number()]);

/** One entry per position of the geometry, in the same order. */
const trackPropertiesSchema = z.object({
  kind: z.literal("track"),
  deviceid: z.string(),
  times: z.array(z.iso.datetime()),
  speedsKmh: z.array(z.number()),
  headingsDeg: z.array(z.number()),
});

const eventPropertiesSchema = z.object({
  kind: z.literal("event"),
  time: z.iso.datetime(),
  /** When the vehicle was at this position: `time`, unless the track's nearest point stands in. */
  fixTime: z.iso.datetime(),
  source: z.enum(["event", "track"]),
  speedKmh: z.number().nullable(),
  headingDeg: z.number().nullable(),
});

const pointSchema = z.object({ type: z.literal("Point"), coordinates: positionSchema });

/**
 * `track.geojson`: an RFC 7946 FeatureCollection of the GPS points over the evidence window and
 * the vehicle at the event. The track is a LineString; a track of ONE point is a Point with the
 * same properties (a LineString needs two positions), so a reader finds the track by
 * `properties.kind`, never by geometry type. The event feature is left out when nothing places it.
 */
export const trackGeoJsonSchema = z.object({
  type: z.literal("FeatureCollection"),
  features: z.array(
    z.union([
      z.object({
        type: z.literal("Feature"),
        geometry: z.union([
          z.object({ type: z.literal("LineString"), coordinates: z.array(positionSchema).min(2) }),
          pointSchema,
        ]),
        properties: trackPropertiesSchema,
      }),
      z.object({ type: z.literal("Feature"), geometry: pointSchema, properties: eventPropertiesSchema }),
    ]),
  ),
});
export type TrackGeoJson = z.output<typeof trackGeoJsonSchema>;
type Position = z.output<typeof positionSchema>;

/** The FeatureCollection of a non-empty track (pure). */
export function trackGeoJson(deviceid: string, track: readonly TrackPoint[], fix: EventFix): TrackGeoJson {
  const features: TrackGeoJson["features"] = [];
  const positions = track.map(positionOf);
  const [first] = positions;
  if (first)
    features.push({
      type: "Feature",
      geometry:
        positions.length >= 2
          ? { type: "LineString", coordinates: positions }
          : { type: "Point", coordinates: first },
      properties: {
        kind: "track",
        deviceid,
        times: track.map((point) => isoTime(point.timeMs)),
        speedsKmh: track.map((point) => roundTo(point.speedKmh, 2)),
        headingsDeg: track.map((point) => roundTo(point.headingDeg, 2)),
      },
    });
  if (fix.position)
    features.push({
      type: "Feature",
      geometry: { type: "Point", coordinates: positionOf(fix.position) },
      properties: {
        kind: "event",
        time: isoTime(fix.timeMs),
        fixTime: isoTime(fix.position.fixMs),
        source: fix.position.source,
        speedKmh: fix.speedKmh === undefined ? null : roundTo(fix.speedKmh, 2),
        headingDeg: fix.headingDeg === undefined ? null : roundTo(fix.headingDeg, 2),
      },
    });
  return { type: "FeatureCollection", features };
}

/**
 * The stored bytes: compact JSON (a 45-minute track has 540 points) and a final newline. The same
 * track always gives the same bytes, so a replay that rewrites it stores what it stored before.
 */
export function trackBody(geojson: TrackGeoJson): string {
  return `${JSON.stringify(geojson)}\n`;
}

function positionOf({ lat, lng }: { lat: number; lng: number }): Position {
  return [roundTo(lng, 6), roundTo(lat, 6)];
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
