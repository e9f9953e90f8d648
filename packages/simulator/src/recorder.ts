/**
 * The device's video recorder: what it writes to the SD card minute by minute. GSensor and
 * Trigger in mark alert-record minutes; a DiskError switches recording to GPS-only until a Reboot;
 * a failed camera (camera.ts) leaves GPS-only minutes or none until it is repaired.
 */

import { Camera, type CameraFailureMode } from "./camera.js";
import type { DeviceContext } from "./devicetypes.js";
import { EventCode } from "./events.js";
import { type DeviceRecordings, RecordingKind } from "./recordings.js";
import type { Rng } from "./rng.js";
import { MINUTE_MS } from "./time.js";

const ALERT_RECORD_MS = MINUTE_MS;

export class Recorder {
  private broken = false;
  private alert: { kind: RecordingKind; untilMs: number } | undefined;
  private readonly camera: Camera;

  constructor(
    private readonly recordings: DeviceRecordings,
    private readonly device: DeviceContext,
    /** The camera's own stream for random lasting failures; none: cameras fail only when told. */
    cameraRng: Rng | undefined,
  ) {
    this.camera = new Camera(cameraRng);
  }

  get diskError(): boolean {
    return this.broken;
  }

  /** The camera's failure at `ms`, or "ok". */
  cameraAt(ms: number): CameraFailureMode | "ok" {
    return this.camera.failureAt(ms) ?? "ok";
  }

  /**
   * Records while powered, connected or not: video, GPS only after a disk error or with a camera
   * that logs GPS alone, nothing with a camera that stops the recording.
   */
  record(ms: number): void {
    const minute = Math.floor(ms / MINUTE_MS);
    const lost = this.camera.failureAt(ms);
    if (lost === "no-record") return;
    const video = !this.broken && lost === undefined;
    this.recordings.mark(minute, video ? RecordingKind.Normal : RecordingKind.GpsOnly);
    if (video && this.alert && ms <= this.alert.untilMs) this.recordings.mark(minute, this.alert.kind);
  }

  /** GSensor and Trigger in keep the recorder's pre-event buffer: the minute before counts too. */
  startAlert(ms: number, kind: RecordingKind): void {
    this.alert = { kind, untilMs: ms + ALERT_RECORD_MS };
    if (!this.broken && this.camera.failureAt(ms) === undefined)
      this.recordings.mark(Math.floor(ms / MINUTE_MS) - 1, kind);
  }

  /** A random VideoLoss on `channel`: most come back at once, a few leave the camera failed a while. */
  videoLoss(ms: number, channel: number): void {
    this.device.send(EventCode.VideoLoss, ms, { type: channel });
    this.camera.afterVideoLoss(ms);
  }

  /** `failCamera`: VideoLoss on `channel` now, and no video until `repairCamera`. */
  failCamera(ms: number, mode: CameraFailureMode, channel: number): void {
    this.device.send(EventCode.VideoLoss, ms, { type: channel });
    this.camera.fail(mode);
  }

  repairCamera(): void {
    this.camera.repair();
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
