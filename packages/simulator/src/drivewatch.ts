/**
 * What the device notices about the vehicle's motion: OverSpeed when the speed crosses the
 * device's limit, Idle after 2 minutes stationary while on, GPIO0 (the door) at some stops.
 */

import type { DeviceContext } from "./devicetypes.js";
import { EventCode } from "./events.js";
import { roundTo } from "./numbers.js";
import { MINUTE_MS } from "./time.js";

const IDLE_AFTER_MS = 2 * MINUTE_MS;
/** Below the limit by this much, a later crossing counts as a new OverSpeed. */
const OVERSPEED_HYSTERESIS_KMH = 5;

export class DriveWatch {
  private stoppedSinceMs: number | undefined;
  private idleReported = false;
  private overSpeeding = false;
  private doorOpen = false;

  constructor(private readonly device: DeviceContext) {}

  /** After the vehicle has driven a tick; `wasMoving` is whether it was moving before. */
  driven(ms: number, wasMoving: boolean): void {
    this.checkOverSpeed(ms);
    const moving = this.device.vehicle.speed > 0;
    if (wasMoving && !moving && this.device.rng.chance(0.2)) this.setDoor(ms, true);
    if (!wasMoving && moving && this.doorOpen) this.setDoor(ms, false);
  }

  checkIdle(ms: number): void {
    if (this.device.vehicle.speed > 0) {
      this.stoppedSinceMs = undefined;
      this.idleReported = false;
      return;
    }
    this.stoppedSinceMs ??= ms;
    if (!this.idleReported && ms - this.stoppedSinceMs >= IDLE_AFTER_MS) {
      this.idleReported = true;
      this.device.send(EventCode.Idle, ms, this.device.located({}));
    }
  }

  /**
   * The power went off. Whether Idle was reported is kept: the vehicle has not moved since, so a
   * stop that already raised Idle does not raise it again after the power cycle.
   */
  powerOff(): void {
    this.overSpeeding = false;
    this.stoppedSinceMs = undefined;
    this.doorOpen = false;
  }

  private checkOverSpeed(ms: number): void {
    const limit = this.device.profile.speedLimitKmh;
    const { speed } = this.device.vehicle;
    if (!this.overSpeeding && speed > limit) {
      this.overSpeeding = true;
      // The speed over this tick: the true speed at whatever time within it the event gets. Rounded
      // as the GPS point of the tick rounds it, so the two show the same figure.
      const memo = `${roundTo(speed, 1).toFixed(1)} km/h, limit ${limit} km/h`;
      this.device.send(EventCode.OverSpeed, ms, this.device.located({ memo }));
    } else if (this.overSpeeding && speed < limit - OVERSPEED_HYSTERESIS_KMH) {
      this.overSpeeding = false;
    }
  }

  private setDoor(ms: number, open: boolean): void {
    this.doorOpen = open;
    this.device.send(EventCode.Gpio0, ms, { type: open ? 1 : 0 });
    if (open && this.device.rng.chance(0.3)) {
      this.device.schedule(ms + this.device.rng.int(1, 3) * MINUTE_MS, (at) =>
        this.device.send(EventCode.SdBackupGpio0, at, { downloadtype: 2, loopdata: "" }),
      );
    }
  }
}
