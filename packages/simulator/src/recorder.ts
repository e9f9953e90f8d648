/**
 * The device's video recorder: what it writes to the SD card minute by minute. GSensor and
 * Trigger in mark alert-record minutes; a DiskError switches recording to GPS-only until a Reboot.
 */

import type { DeviceContext } from "./devicetypes.js";
import { EventCode } from "./events.js";
import { type DeviceRecordings, RecordingKind } from "./recordings.js";
import { MINUTE_MS } from "./time.js";

const ALERT_RECORD_MS = MINUTE_MS;

export class Recorder {
  private broken = false;
  private alert: { kind: RecordingKind; untilMs: number } | undefined;

  constructor(
    private readonly recordings: DeviceRecordings,
    private readonly device: DeviceContext,
  ) {}

  get diskError(): boolean {
    return this.broken;
  }

  /** Records while powered, connected or not; a disk error leaves only GPS-only minutes. */
  record(ms: number): void {
    const minute = Math.floor(ms / MINUTE_MS);
    this.recordings.mark(minute, this.broken ? RecordingKind.GpsOnly : RecordingKind.Normal);
    if (this.alert && ms <= this.alert.untilMs && !this.broken) this.recordings.mark(minute, this.alert.kind);
  }

  /** GSensor and Trigger in keep the recorder's pre-event buffer: the minute before counts too. */
  startAlert(ms: number, kind: RecordingKind): void {
    this.alert = { kind, untilMs: ms + ALERT_RECORD_MS };
    if (!this.broken) this.recordings.mark(Math.floor(ms / MINUTE_MS) - 1, kind);
  }

  powerOn(ms: number): void {
    // A broken SD card stays broken through a power cycle; a Reboot later repairs it.
    if (this.broken)
      this.device.schedule(ms + this.device.rng.int(5, 30) * MINUTE_MS, (at) => this.reboot(at));
  }

  /** Power-off ends an alert recording with the rest. */
  powerOff(): void {
    this.alert = undefined;
  }

  failDisk(ms: number): void {
    if (this.broken) return;
    this.broken = true;
    this.device.send(EventCode.DiskError, ms, { type: 1 });
    this.device.schedule(ms + this.device.rng.int(10, 40) * MINUTE_MS, (at) => this.reboot(at));
  }

  reboot(ms: number): void {
    this.broken = false;
    this.device.send(EventCode.Reboot, ms, {});
  }
}
