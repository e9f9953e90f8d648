/**
 * A device's GPS history (endpoint 1). Points arrive every 5 seconds while a device is online with
 * a fix, so a long simulation holds millions of them: they live in growable typed arrays (40 bytes a
 * point) rather than one object each.
 * Values are stored already rounded to what the wire shows, so ground truth equals the response.
 */
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
  private length = 0;
  private times = new Float64Array(1024);
  private lats = new Float64Array(1024);
  private lngs = new Float64Array(1024);
  private speeds = new Float64Array(1024);
  private dirs = new Float64Array(1024);

  /** Appends a point; times must not decrease. */
  push(point: GpsPoint): void {
    if (this.length === this.times.length) this.grow();
    const i = this.length++;
    this.times[i] = point.time;
    this.lats[i] = roundTo(point.lat, 6);
    this.lngs[i] = roundTo(point.lng, 6);
    this.speeds[i] = roundTo(point.speed, 1);
    this.dirs[i] = roundTo(point.dir, 1);
  }

  /** Points with startSec <= time <= endSec (both inclusive), ascending. */
  range(startSec: number, endSec: number): GpsPoint[] {
    const points: GpsPoint[] = [];
    for (let i = this.lowerBound(startSec); i < this.length && (this.times[i] as number) <= endSec; i++) {
      points.push({
        time: this.times[i] as number,
        lat: this.lats[i] as number,
        lng: this.lngs[i] as number,
        speed: this.speeds[i] as number,
        dir: this.dirs[i] as number,
      });
    }
    return points;
  }

  private lowerBound(timeSec: number): number {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.times[middle] as number) < timeSec) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private grow(): void {
    const grown = (array: Float64Array) => {
      const next = new Float64Array(array.length * 2);
      next.set(array);
      return next;
    };
    this.times = grown(this.times);
    this.lats = grown(this.lats);
    this.lngs = grown(this.lngs);
    this.speeds = grown(this.speeds);
    this.dirs = grown(this.dirs);
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
