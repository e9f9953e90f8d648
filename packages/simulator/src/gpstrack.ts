/**
 * A device's GPS history (endpoint 1). Points arrive every 5 seconds while a device is online with
 * a fix, so a long simulation holds millions of them: they live in typed-array columns (40 bytes a
 * point) rather than one object each.
 * Values are stored already rounded to what the wire shows, so ground truth equals the response.
 */
import { FloatColumns } from "./columns.js";
import { roundTo } from "./numbers.js";

/** A ground-truth point, numeric; the wire form writes lat/lng/speed/dir as decimal strings. */
export interface GpsPoint {
  /** UNIX seconds. */
  time: number;
  lat: number;
  lng: number;
  /** km/h (the simulator's choice; the spec leaves the unit open). */
  speed: number;
  /** Degrees clockwise from north, 0..360. */
  dir: number;
}

export interface WireGpsPoint {
  lat: string;
  lng: string;
  speed: string;
  dir: string;
  time: number;
}

export class GpsTrack {
  private readonly points = new FloatColumns<keyof GpsPoint>(["time", "lat", "lng", "speed", "dir"]);

  /** Appends a point; times must not decrease. */
  push(point: GpsPoint): void {
    const { time, lat, lng, speed, dir } = point;
    this.points.push([time, roundTo(lat, 6), roundTo(lng, 6), roundTo(speed, 1), roundTo(dir, 1)]);
  }

  /** Points with startSec <= time <= endSec (both inclusive), ascending. */
  range(startSec: number, endSec: number): GpsPoint[] {
    const found: GpsPoint[] = [];
    const { points } = this;
    for (let i = points.lowerBound("time", startSec); i < points.length; i++) {
      if (points.value("time", i) > endSec) break;
      found.push(points.row(i));
    }
    return found;
  }
}

export function toWireGpsPoint(point: GpsPoint): WireGpsPoint {
  return {
    lat: point.lat.toFixed(6),
    lng: point.lng.toFixed(6),
    speed: point.speed.toFixed(1),
    dir: point.dir.toFixed(1),
    time: point.time,
  };
}
