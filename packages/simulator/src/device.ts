/**
 * One device's life over virtual time, advanced in 5-second ticks: power (ACC) on/off, trips,
 * network drops, GPS fixes, recording, and the events all of that produces.
 *
 * The spec does not say which conditions produce which events; the model here is:
 * - a device is "off" (ACC off, offline) or on: "parked" (engine idling) or "driving" a trip;
 * - connectivity and event delivery: see uplink.ts;
 * - OverSpeed, Idle and the door: see drivewatch.ts; alert and GPS-only recording, failed cameras:
 *   recorder.ts; what the service can show of the card: card-visibility.ts;
 *   the rest at seeded random rates: randomevents.ts.
 *
 * This module is the power and trip state machine that drives those parts, tick by tick. They
 * all draw from the device's one seeded stream, so the order of calls here is part of the
 * simulation's output: the same seed must give the same fleet, events and serials. (Random camera
 * failures draw from a stream of their own, so turning them off moves nothing else.)
 */

import type { CameraFailureMode } from "./camera.js";
import { CardVisibility } from "./card-visibility.js";
import type { DeviceContext, DeviceEvent, DeviceMode, DeviceState, DeviceStatus } from "./devicetypes.js";
import { TICK_MS } from "./devicetypes.js";
import { DriveWatch } from "./drivewatch.js";
import type { DeviceProfile } from "./fleet.js";
import { FollowUps } from "./followups.js";
import { GpsReceiver } from "./gpsreceiver.js";
import { GpsTrack } from "./gpstrack.js";
import { Vehicle } from "./motion.js";
import { RandomEvents } from "./randomevents.js";
import { Recorder } from "./recorder.js";
import { DeviceRecordings } from "./recordings.js";
import type { Rng } from "./rng.js";
import { HOUR_MS, MINUTE_MS } from "./time.js";
import { type GroundTruth, TruthTrack } from "./truthtrack.js";
import { Uplink } from "./uplink.js";

/** What a device is given besides its profile. */
export interface DeviceSetup {
  /** The device's one seeded stream. */
  rng: Rng;
  /** The stream of random lasting camera failures; undefined: cameras fail only when told. */
  cameraRng: Rng | undefined;
  /** Whole days its SD card holds. */
  retentionDays: number;
}

export class DeviceActivity {
  readonly track = new GpsTrack();
  readonly recordings: DeviceRecordings;
  readonly truth: TruthTrack;

  private pin: "online" | "offline" | undefined;
  /** parkOffline with a return time: when the held-off device powers on by itself. */
  private returnAtMs: number | undefined;
  private mode: DeviceMode;
  private modeEndsAt: number;
  private afterParking: "trip" | "off" = "trip";
  private nextTickMs: number;

  private readonly vehicle: Vehicle;
  private readonly gps: GpsReceiver;
  private readonly uplink: Uplink;
  private readonly followUps = new FollowUps();
  private readonly recorder: Recorder;
  private readonly watch: DriveWatch;
  private readonly randomEvents: RandomEvents;
  private readonly card: CardVisibility;
  private readonly rng: Rng;

  constructor(
    readonly profile: DeviceProfile,
    setup: DeviceSetup,
    startMs: number,
    deliver: (event: DeviceEvent) => void,
  ) {
    const { rng } = setup;
    this.rng = rng;
    this.card = new CardVisibility(setup.retentionDays, startMs);
    this.recordings = new DeviceRecordings(this.card);
    this.vehicle = new Vehicle(profile, rng);
    const phase = profile.tickPhaseMs;
    this.nextTickMs = Math.floor((startMs - phase) / TICK_MS) * TICK_MS + phase + TICK_MS;
    this.truth = new TruthTrack(this.nextTickMs - TICK_MS, this.vehicleState());
    this.gps = new GpsReceiver(profile.hasGpsAntenna, rng, this.vehicle, this.truth, startMs);
    // Half the fleet starts powered off, the rest parked with the engine on.
    const online = rng.chance(0.5);
    this.mode = online ? "parked" : "off";
    this.modeEndsAt = startMs + rng.int(1, online ? 5 : 60) * MINUTE_MS;
    const lastReportMs = online ? startMs : startMs - rng.int(1, 5) * HOUR_MS;
    this.uplink = new Uplink(rng, deliver, this.track, profile.statusIntervalMs, this.card, {
      online,
      lastReportMs,
      reportedFix: this.gps.fix(lastReportMs),
    });
    const context: DeviceContext = {
      profile,
      rng,
      vehicle: this.vehicle,
      send: (appdevid, tickMs, details) => this.uplink.send(appdevid, tickMs, details),
      schedule: (atMs, run) => this.followUps.schedule(atMs, run),
      located: (details) => (eventMs) => ({ ...details, ...this.gps.position(eventMs) }),
    };
    this.recorder = new Recorder(this.recordings, context, setup.cameraRng);
    this.watch = new DriveWatch(context);
    this.randomEvents = new RandomEvents(context, this.recorder, (ms) => this.dropConnection(ms));
  }

  /** Runs every tick up to and including `targetMs`. */
  runUntil(targetMs: number): void {
    while (this.nextTickMs <= targetMs) {
      this.tick(this.nextTickMs);
      this.nextTickMs += TICK_MS;
    }
    this.card.advanceTo(targetMs);
    this.recordings.forgetOverwrittenDays();
  }

  status(): DeviceStatus {
    return this.uplink.status();
  }

  state(): DeviceState {
    return {
      mode: this.mode,
      online: this.uplink.online,
      pinned: this.pin,
      ...this.vehicleState(),
      hasFix: this.gps.hasFix,
      diskError: this.recorder.diskError,
      camera: this.recorder.cameraAt(this.nextTickMs - TICK_MS),
      retentionDays: this.card.retentionDays,
    };
  }

  /**
   * `setOnline(false)`: power off now; with `hold`, stay off until released. The caller logs the
   * Offline event.
   */
  forceOffline(ms: number, hold: boolean): void {
    this.pin = hold ? "offline" : undefined;
    this.returnAtMs = undefined;
    if (this.mode !== "off") this.shutdown(ms, false);
  }

  /**
   * `parkOffline`: power off now and stay off (no GPS points, no recording, nothing uploaded); at
   * `returnAtMs`, if given, power on and connect by itself (logging Online) and go back to the
   * simulation. The caller logs the Offline event.
   */
  parkOffline(ms: number, returnAtMs: number | undefined): void {
    this.forceOffline(ms, true);
    this.returnAtMs = returnAtMs;
  }

  /**
   * `setOnline(true)`: power on (if off) and connect now; with `hold`, no power-off or network
   * drop until released. The caller logs the Online event.
   */
  forceOnline(ms: number, hold: boolean): void {
    this.pin = hold ? "online" : undefined;
    this.returnAtMs = undefined;
    if (this.mode === "off") this.powerOn(ms);
    if (!this.uplink.online) this.uplink.connect(ms, false);
  }

  /** Hands the device back to the simulation after a held setOnline. */
  release(): void {
    this.pin = undefined;
    this.returnAtMs = undefined;
  }

  /** `failCamera`: VideoLoss on `channel`, then no video until repaired. */
  failCamera(ms: number, mode: CameraFailureMode, channel: number): void {
    this.recorder.failCamera(ms, mode, channel);
  }

  repairCamera(): void {
    this.recorder.repairCamera();
  }

  setRetentionDays(days: number): void {
    this.card.setRetentionDays(days);
  }

  private tick(ms: number): void {
    if (this.mode === "off") {
      if (this.returnAtMs !== undefined && ms >= this.returnAtMs) this.comeBack(ms);
      if (this.pin === "offline" || ms < this.modeEndsAt) {
        // Recorded all the same: setOnline(false) may have stopped the vehicle since the last tick.
        this.truth.record(ms, this.vehicleState());
        return;
      }
      this.powerOn(ms);
      this.uplink.connect(ms, true);
    } else if (this.uplink.dropOver(ms)) {
      this.uplink.connect(ms, true);
    }
    this.followUps.runDue(ms);
    const wasMoving = this.vehicle.speed > 0;
    const drove = this.move(ms);
    // Before anything sends this tick's events (OverSpeed first): they ask where the vehicle was
    // at their own time.
    this.truth.record(ms, this.vehicleState());
    if (drove) this.watch.driven(ms, wasMoving);
    if (this.mode === "off") return;
    this.gps.update(ms);
    this.uplink.report(ms, this.gps.fix(ms));
    this.recorder.record(ms);
    this.watch.checkIdle(ms);
    this.randomEvents.maybeFire(ms, this.mode === "driving");
    this.uplink.heard(ms);
  }

  private vehicleState(): GroundTruth {
    const { lat, lng, speed, heading } = this.vehicle;
    return { lat, lng, speedKmh: speed, heading };
  }

  /** The end of a timed parkOffline: back in the simulation, powering on at this tick. */
  private comeBack(ms: number): void {
    this.pin = undefined;
    this.returnAtMs = undefined;
    this.modeEndsAt = ms;
  }

  private powerOn(ms: number): void {
    this.mode = "parked";
    this.modeEndsAt = ms + this.rng.int(1, 3) * MINUTE_MS;
    this.afterParking = "trip";
    this.recorder.powerOn(ms);
  }

  private shutdown(ms: number, announce: boolean): void {
    this.uplink.disconnect(ms, announce);
    this.mode = "off";
    this.modeEndsAt = ms + this.rng.int(10, 90) * MINUTE_MS;
    this.vehicle.halt();
    this.followUps.clear();
    this.recorder.powerOff();
    this.watch.powerOff();
  }

  private dropConnection(ms: number): void {
    if (this.pin !== "online") this.uplink.drop(ms);
  }

  /** Returns whether the vehicle drove this tick. */
  private move(ms: number): boolean {
    if (this.mode === "parked") {
      if (ms < this.modeEndsAt) return false;
      if (this.afterParking === "off" && this.pin !== "online") {
        this.shutdown(ms, true);
      } else {
        this.mode = "driving";
        this.vehicle.startTrip(ms);
      }
      return false;
    }
    if (this.vehicle.drive(ms, TICK_MS)) return true;
    this.park(ms);
    return false;
  }

  private park(ms: number): void {
    this.mode = "parked";
    this.modeEndsAt = ms + this.rng.int(1, 10) * MINUTE_MS;
    this.afterParking = this.rng.chance(0.6) ? "off" : "trip";
  }
}
