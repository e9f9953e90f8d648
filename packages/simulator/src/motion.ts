/**
 * How a vehicle moves during a trip, one 5-second tick at a time: a chain of segments, each
 * either cruising toward a target speed or stopping (lights, deliveries), with the heading
 * wandering and turning back toward home when the vehicle strays too far.
 */
import type { DeviceProfile } from "./fleet.js";
import type { Rng } from "./rng.js";
import { MINUTE_MS, SECOND_MS } from "./time.js";

const EARTH_METERS_PER_DEGREE = 111_320;

export class Vehicle {
  lat: number;
  lng: number;
  /** Degrees clockwise from north. */
  heading: number;
  /** km/h. */
  speed = 0;

  private targetSpeed = 0;
  private segmentEndsAt = 0;
  private stopEndsAt = 0;
  private tripEndsAt = 0;
  private tripEnding = false;

  constructor(
    private readonly profile: DeviceProfile,
    private readonly rng: Rng,
  ) {
    this.lat = profile.home.lat;
    this.lng = profile.home.lng;
    this.heading = rng.between(0, 360);
  }

  startTrip(ms: number): void {
    this.tripEndsAt = ms + this.rng.int(15, 90) * MINUTE_MS;
    this.tripEnding = false;
    this.nextSegment(ms);
  }

  /**
   * Moves the vehicle by one tick of `tickMs`. Returns false, without moving, once the trip is
   * over and the vehicle has come to a stop.
   */
  drive(ms: number, tickMs: number): boolean {
    if (ms >= this.tripEndsAt) this.tripEnding = true;
    if (this.tripEnding && this.speed === 0) return false;
    if (!this.tripEnding && ms >= this.segmentEndsAt) this.nextSegment(ms);
    const target = this.tripEnding || ms < this.stopEndsAt ? 0 : this.targetSpeed;
    this.updateSpeed(target);
    this.updatePosition(tickMs);
    return true;
  }

  /** Stops dead (the power went off). */
  halt(): void {
    this.speed = 0;
  }

  private nextSegment(ms: number): void {
    if (this.rng.chance(0.25)) {
      this.stopEndsAt = ms + this.rng.int(15, 150) * SECOND_MS;
      this.segmentEndsAt = this.stopEndsAt;
      return;
    }
    const limit = this.profile.speedLimitKmh;
    const draw = this.rng.next();
    // About one segment in seven is driven above the limit, so OverSpeed rules have work.
    if (draw < 0.15) this.targetSpeed = this.rng.between(limit + 5, limit + 30);
    else if (draw < 0.4) this.targetSpeed = this.rng.between(65, limit - 3);
    else this.targetSpeed = this.rng.between(25, 60);
    this.segmentEndsAt = ms + this.rng.int(1, 6) * MINUTE_MS;
    if (this.rng.chance(0.5)) this.heading = (this.heading + this.rng.between(-90, 90) + 360) % 360;
  }

  /** Accelerates by at most 8 km/h and brakes by at most 12 km/h per tick, with some noise. */
  private updateSpeed(target: number): void {
    const change = Math.max(-12, Math.min(8, target - this.speed));
    const noise = target > 0 ? this.rng.between(-1.5, 1.5) : 0;
    this.speed = Math.max(0, this.speed + change + noise);
    if (target === 0 && this.speed < 3) this.speed = 0;
  }

  private updatePosition(tickMs: number): void {
    if (this.speed === 0) return;
    const { home, roamRadiusKm } = this.profile;
    const northMeters = (this.lat - home.lat) * EARTH_METERS_PER_DEGREE;
    const eastMeters = (this.lng - home.lng) * EARTH_METERS_PER_DEGREE * Math.cos(toRadians(this.lat));
    let turn = this.rng.between(-4, 4);
    if (Math.hypot(northMeters, eastMeters) > roamRadiusKm * 1000) {
      // Too far out: steer back toward home, at most 15 degrees a tick.
      const homeBearing = (toDegrees(Math.atan2(-eastMeters, -northMeters)) + 360) % 360;
      const offset = ((homeBearing - this.heading + 540) % 360) - 180;
      turn = Math.max(-15, Math.min(15, offset));
    }
    this.heading = (this.heading + turn + 360) % 360;
    const meters = (this.speed / 3.6) * (tickMs / SECOND_MS);
    this.lat += (meters * Math.cos(toRadians(this.heading))) / EARTH_METERS_PER_DEGREE;
    this.lng +=
      (meters * Math.sin(toRadians(this.heading))) /
      (EARTH_METERS_PER_DEGREE * Math.cos(toRadians(this.lat)));
  }
}

function toRadians(degrees: number): number {
  return (degrees * Math.PI) / 180;
}

function toDegrees(radians: number): number {
  return (radians * 180) / Math.PI;
}
