/** A device's GPS receiver: where it thinks the vehicle is, when it has a fix at all. */

import type { EventDetails } from "./eventlog.js";
import type { Vehicle } from "./motion.js";
import type { Fix } from "./nmea.js";
import { roundTo } from "./numbers.js";
import type { Rng } from "./rng.js";
import { HOUR_MS, SECOND_MS } from "./time.js";
import type { TruthTrack } from "./truthtrack.js";

export class GpsReceiver {
  private fixed: boolean;
  private changesAt: number;

  constructor(
    private readonly hasAntenna: boolean,
    private readonly rng: Rng,
    private readonly vehicle: Vehicle,
    private readonly truth: TruthTrack,
    startMs: number,
  ) {
    this.fixed = hasAntenna;
    this.changesAt = startMs + rng.int(1, 6) * HOUR_MS;
  }

  get hasFix(): boolean {
    return this.fixed;
  }

  /** Fixes come and go: hours with a fix, then up to a few minutes without (tunnels, garages). */
  update(ms: number): void {
    if (!this.hasAntenna || ms < this.changesAt) return;
    this.fixed = !this.fixed;
    this.changesAt = ms + (this.fixed ? this.rng.int(1, 6) * HOUR_MS : this.rng.int(30, 300) * SECOND_MS);
  }

  /** The fix the device would report now; null without one. */
  fix(ms: number): Fix | null {
    if (!this.fixed) return null;
    const { lat, lng, speed, heading } = this.vehicle;
    return { epochMs: ms, lat, lng, speedKmh: speed, heading };
  }

  /**
   * Where the vehicle was at `eventMs`, as event details: an event happens between two ticks,
   * where the vehicle was neither at the previous tick's position nor yet at this one's.
   */
  position(eventMs: number): Partial<EventDetails> {
    const truth = this.fixed ? this.truth.at(eventMs) : undefined;
    return truth ? { vehiclex: roundTo(truth.lng, 6), vehicley: roundTo(truth.lat, 6) } : {};
  }
}
