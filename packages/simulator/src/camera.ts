/**
 * A device's cameras as its recorder sees them: working, or failed so that the recorder writes no
 * video. The daily record map has one value per minute for the whole device, so a failure here is
 * the recorder's video input failing on every channel (a loose harness, a dead encoder); the
 * VideoLoss event names the channel that reported it. Two ways to fail, as recorders show them:
 * - "gps-only": the recorder keeps logging GPS without video (daily map value 3);
 * - "no-record": the recorder writes nothing at all (value 0).
 * The GPS history is not the recorder's: it still gets its points either way.
 */

import type { Rng } from "./rng.js";
import { MINUTE_MS } from "./time.js";

export const CAMERA_FAILURE_MODES = ["gps-only", "no-record"] as const;
export type CameraFailureMode = (typeof CAMERA_FAILURE_MODES)[number];

/** Of the random VideoLoss events, the share whose camera stays lost instead of coming back at once. */
const LASTING_SHARE = 0.1;
/** How long a random failure lasts: long enough for a "not recording" gap, short of a repair visit. */
const LASTING_MINUTES = { min: 20, max: 240 } as const;

export class Camera {
  private failure: { mode: CameraFailureMode; repairsAtMs: number } | undefined;

  /** `rng` is the camera's own stream: drawing from it moves no other draw of the device. */
  constructor(private readonly rng: Rng | undefined) {}

  /** Fails until `repair()`. */
  fail(mode: CameraFailureMode): void {
    this.failure = { mode, repairsAtMs: Number.POSITIVE_INFINITY };
  }

  repair(): void {
    this.failure = undefined;
  }

  /** A random VideoLoss: now and then (when random failures are on) the camera stays lost a while. */
  afterVideoLoss(ms: number): void {
    if (!this.rng || this.failure || !this.rng.chance(LASTING_SHARE)) return;
    const mode = this.rng.pick(CAMERA_FAILURE_MODES);
    this.failure = {
      mode,
      repairsAtMs: ms + this.rng.int(LASTING_MINUTES.min, LASTING_MINUTES.max) * MINUTE_MS,
    };
  }

  /** The failure in force at `ms`, if any (a random one comes back by itself when its time is up). */
  failureAt(ms: number): CameraFailureMode | undefined {
    if (this.failure && ms >= this.failure.repairsAtMs) this.failure = undefined;
    return this.failure?.mode;
  }
}
