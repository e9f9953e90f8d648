/**
 * One device's life over virtual time, advanced in 5-second ticks: power (ACC) on/off, trips,
 * network drops, GPS fixes, recording, and the events all of that produces.
 *
 * The spec does not say which conditions produce which events; the model here is:
 * - a device is "off" (ACC off, offline) or on: "parked" (engine idling) or "driving" a trip;
 * - the service logs Online/Offline itself when a device connects or disconnects (power or a
 *   network drop), so those arrive at once; device events arrive after an upload delay, and
 *   events produced during a network drop are uploaded after the reconnect (late, out of
 *   eventtime order);
 * - OverSpeed when the track speed crosses the device's limit, Idle after 2 minutes stationary
 *   while on, GPIO0 (door) at some stops, GSensor and Trigger in mark alert-record minutes,
 *   DiskError switches recording to GPS-only until a Reboot, the rest at seeded random rates.
 */

import type { DeviceEvent, DeviceMode, DeviceState, DeviceStatus } from "./devicetypes.js";
import { TICK_MS } from "./devicetypes.js";
import type { EventDetails } from "./eventlog.js";
import { EventCode } from "./events.js";
import type { DeviceProfile } from "./fleet.js";
import { GpsTrack } from "./gpstrack.js";
import { Vehicle } from "./motion.js";
import type { Fix } from "./nmea.js";
import { roundTo } from "./numbers.js";
import { DeviceRecordings, RecordingKind } from "./recordings.js";
import type { Rng } from "./rng.js";
import { HOUR_MS, MINUTE_MS, SECOND_MS } from "./time.js";

interface FollowUp {
  atMs: number;
  run(ms: number): void;
}

interface RandomEventRate {
  drivingPerHour: number;
  parkedPerHour: number;
  fire(ms: number): void;
}

const IDLE_AFTER_MS = 2 * MINUTE_MS;
const ALERT_RECORD_MS = MINUTE_MS;

export class DeviceActivity {
  readonly track = new GpsTrack();
  readonly recordings = new DeviceRecordings();

  private pin: "online" | "offline" | undefined;
  private mode: DeviceMode;
  private modeEndsAt: number;
  private afterParking: "trip" | "off" = "trip";
  private online: boolean;
  private dropEndsAt: number | undefined;
  private nextTickMs: number;
  private lastReportMs: number;
  private reportedFix: Fix | null = null;

  private readonly vehicle: Vehicle;
  private stoppedSinceMs: number | undefined;
  private idleReported = false;
  private overSpeeding = false;
  private doorOpen = false;

  private hasFix: boolean;
  private fixChangesAt: number;
  private diskError = false;
  private alert: { kind: RecordingKind; untilMs: number } | undefined;
  private followUps: FollowUp[] = [];
  /** Events produced while disconnected, uploaded at the next connect. */
  private outbox: DeviceEvent[] = [];
  private readonly randomEvents: readonly RandomEventRate[];

  constructor(
    readonly profile: DeviceProfile,
    private readonly rng: Rng,
    startMs: number,
    private readonly deliver: (event: DeviceEvent) => void,
  ) {
    this.vehicle = new Vehicle(profile, rng);
    this.hasFix = profile.hasGpsAntenna;
    this.fixChangesAt = startMs + rng.int(1, 6) * HOUR_MS;
    // Half the fleet starts powered off, the rest parked with the engine on.
    this.online = rng.chance(0.5);
    this.mode = this.online ? "parked" : "off";
    this.modeEndsAt = startMs + rng.int(1, this.online ? 5 : 60) * MINUTE_MS;
    this.lastReportMs = this.online ? startMs : startMs - rng.int(1, 5) * HOUR_MS;
    if (this.hasFix) this.reportedFix = this.currentFix(this.lastReportMs);
    const phase = profile.tickPhaseMs;
    this.nextTickMs = Math.floor((startMs - phase) / TICK_MS) * TICK_MS + phase + TICK_MS;
    this.randomEvents = this.randomEventRates();
  }

  /** Runs every tick up to and including `targetMs`. */
  runUntil(targetMs: number): void {
    while (this.nextTickMs <= targetMs) {
      this.tick(this.nextTickMs);
      this.nextTickMs += TICK_MS;
    }
  }

  status(): DeviceStatus {
    return { online: this.online, lastReportMs: this.lastReportMs, reportedFix: this.reportedFix };
  }

  state(): DeviceState {
    return {
      mode: this.mode,
      online: this.online,
      pinned: this.pin,
      lat: this.vehicle.lat,
      lng: this.vehicle.lng,
      speedKmh: this.vehicle.speed,
      heading: this.vehicle.heading,
      hasFix: this.hasFix,
      diskError: this.diskError,
    };
  }

  /**
   * `setOnline(false)`: power off now; with `hold`, stay off until released. The caller logs the
   * Offline event.
   */
  forceOffline(ms: number, hold: boolean): void {
    this.pin = hold ? "offline" : undefined;
    if (this.mode !== "off") this.shutdown(ms, false);
  }

  /**
   * `setOnline(true)`: power on (if off) and connect now; with `hold`, no power-off or network
   * drop until released. The caller logs the Online event.
   */
  forceOnline(ms: number, hold: boolean): void {
    this.pin = hold ? "online" : undefined;
    if (this.mode === "off") this.powerOn(ms);
    if (!this.online) this.connect(ms, false);
  }

  /** Hands the device back to the simulation after a held setOnline. */
  release(): void {
    this.pin = undefined;
  }

  private tick(ms: number): void {
    if (this.mode === "off") {
      if (this.pin === "offline" || ms < this.modeEndsAt) return;
      this.powerOn(ms);
      this.connect(ms, true);
    } else if (!this.online && this.dropEndsAt !== undefined && ms >= this.dropEndsAt) {
      this.connect(ms, true);
    }
    this.runFollowUps(ms);
    this.move(ms);
    if (this.mode === "off") return;
    this.reportGps(ms);
    this.record(ms);
    this.checkIdle(ms);
    this.maybeRandomEvent(ms);
    if (this.online) this.lastReportMs = ms;
  }

  // ---- power and connectivity ----

  private powerOn(ms: number): void {
    this.mode = "parked";
    this.modeEndsAt = ms + this.rng.int(1, 3) * MINUTE_MS;
    this.afterParking = "trip";
    // A broken SD card stays broken through a power cycle; a Reboot later repairs it.
    if (this.diskError) this.schedule(ms + this.rng.int(5, 30) * MINUTE_MS, (at) => this.reboot(at));
  }

  private shutdown(ms: number, announce: boolean): void {
    if (this.online && announce) this.sendFromService(EventCode.Offline, ms);
    this.online = false;
    this.mode = "off";
    this.modeEndsAt = ms + this.rng.int(10, 90) * MINUTE_MS;
    this.vehicle.halt();
    this.dropEndsAt = undefined;
    this.followUps = [];
    this.alert = undefined;
    this.overSpeeding = false;
    this.stoppedSinceMs = undefined;
    this.doorOpen = false;
  }

  private connect(ms: number, announce: boolean): void {
    this.online = true;
    this.dropEndsAt = undefined;
    this.lastReportMs = ms;
    if (announce) this.sendFromService(EventCode.Online, ms);
    let arrivalMs = ms;
    for (const event of this.outbox) {
      arrivalMs += this.rng.int(200, 3000);
      this.deliver({ ...event, arrivalMs });
    }
    this.outbox = [];
  }

  private dropConnection(ms: number): void {
    if (this.pin === "online" || !this.online) return;
    this.sendFromService(EventCode.Offline, ms);
    this.online = false;
    this.dropEndsAt = ms + this.rng.int(1, 6) * MINUTE_MS;
  }

  // ---- trips ----

  private move(ms: number): void {
    if (this.mode === "parked") {
      if (ms < this.modeEndsAt) return;
      if (this.afterParking === "off" && this.pin !== "online") {
        this.shutdown(ms, true);
      } else {
        this.mode = "driving";
        this.vehicle.startTrip(ms);
      }
      return;
    }
    const wasMoving = this.vehicle.speed > 0;
    if (!this.vehicle.drive(ms, TICK_MS)) {
      this.park(ms);
      return;
    }
    this.checkOverSpeed(ms);
    const moving = this.vehicle.speed > 0;
    if (wasMoving && !moving && this.rng.chance(0.2)) this.setDoor(ms, true);
    if (!wasMoving && moving && this.doorOpen) this.setDoor(ms, false);
  }

  private park(ms: number): void {
    this.mode = "parked";
    this.modeEndsAt = ms + this.rng.int(1, 10) * MINUTE_MS;
    this.afterParking = this.rng.chance(0.6) ? "off" : "trip";
  }

  private checkOverSpeed(ms: number): void {
    const limit = this.profile.speedLimitKmh;
    const { speed } = this.vehicle;
    if (!this.overSpeeding && speed > limit) {
      this.overSpeeding = true;
      this.send(EventCode.OverSpeed, ms, {
        memo: `${speed.toFixed(1)} km/h, limit ${limit} km/h`,
        ...this.vehiclePosition(),
      });
    } else if (this.overSpeeding && speed < limit - 5) {
      this.overSpeeding = false;
    }
  }

  private checkIdle(ms: number): void {
    if (this.vehicle.speed > 0) {
      this.stoppedSinceMs = undefined;
      this.idleReported = false;
      return;
    }
    this.stoppedSinceMs ??= ms;
    if (!this.idleReported && ms - this.stoppedSinceMs >= IDLE_AFTER_MS) {
      this.idleReported = true;
      this.send(EventCode.Idle, ms, this.vehiclePosition());
    }
  }

  private setDoor(ms: number, open: boolean): void {
    this.doorOpen = open;
    this.send(EventCode.Gpio0, ms, { type: open ? 1 : 0 });
    if (open && this.rng.chance(0.3)) {
      this.schedule(ms + this.rng.int(1, 3) * MINUTE_MS, (at) =>
        this.send(EventCode.SdBackupGpio0, at, { downloadtype: 2, loopdata: "" }),
      );
    }
  }

  // ---- GPS and recording ----

  private reportGps(ms: number): void {
    if (this.profile.hasGpsAntenna && ms >= this.fixChangesAt) {
      // Fixes come and go: hours with a fix, then up to a few minutes without (tunnels, garages).
      this.hasFix = !this.hasFix;
      this.fixChangesAt =
        ms + (this.hasFix ? this.rng.int(1, 6) * HOUR_MS : this.rng.int(30, 300) * SECOND_MS);
    }
    if (!this.online) return;
    this.reportedFix = this.hasFix ? this.currentFix(ms) : null;
    if (this.reportedFix) {
      const { lat, lng, speedKmh, heading } = this.reportedFix;
      this.track.push({ time: ms / SECOND_MS, lat, lng, speed: speedKmh, dir: heading });
    }
  }

  /** Records while powered, connected or not; a disk error leaves only GPS-only minutes. */
  private record(ms: number): void {
    const minute = Math.floor(ms / MINUTE_MS);
    this.recordings.mark(minute, this.diskError ? RecordingKind.GpsOnly : RecordingKind.Normal);
    if (this.alert && ms <= this.alert.untilMs && !this.diskError)
      this.recordings.mark(minute, this.alert.kind);
  }

  /** GSensor and Trigger in keep the recorder's pre-event buffer: the minute before counts too. */
  private startAlertRecording(ms: number, kind: RecordingKind): void {
    this.alert = { kind, untilMs: ms + ALERT_RECORD_MS };
    if (!this.diskError) this.recordings.mark(Math.floor(ms / MINUTE_MS) - 1, kind);
  }

  // ---- events ----

  private maybeRandomEvent(ms: number): void {
    let draw = this.rng.next();
    for (const rate of this.randomEvents) {
      draw -= ((this.mode === "driving" ? rate.drivingPerHour : rate.parkedPerHour) * TICK_MS) / HOUR_MS;
      if (draw < 0) {
        rate.fire(ms);
        return;
      }
    }
  }

  private randomEventRates(): RandomEventRate[] {
    const rate = (drivingPerHour: number, parkedPerHour: number, fire: (ms: number) => void) => ({
      drivingPerHour,
      parkedPerHour,
      fire,
    });
    const diskErrorRate = this.profile.flakyDisk ? 0.6 : 0.03;
    return [
      rate(1.5, 0.1, (ms) => this.gsensor(ms)),
      rate(1.0, 0.3, (ms) => this.send(EventCode.Gpio1, ms, { type: this.rng.int(0, 1) })),
      rate(0.4, 0.2, (ms) => this.send(EventCode.Gpio2, ms, { type: this.rng.int(0, 1) })),
      rate(0.3, 0.1, (ms) => this.send(EventCode.Gpio3, ms, { type: this.rng.int(0, 1) })),
      rate(0.25, 0.15, (ms) => this.panicButton(ms)),
      rate(0.6, 0.6, (ms) => this.send(EventCode.SdBackupNormal, ms, { downloadtype: 2, loopdata: "" })),
      rate(0.2, 0.2, (ms) =>
        this.send(EventCode.VideoLoss, ms, { type: this.rng.int(1, this.profile.channels) }),
      ),
      rate(0.1, 0.1, (ms) => this.send(EventCode.LostRecordCover, ms, {})),
      rate(diskErrorRate, diskErrorRate, (ms) => this.diskFailure(ms)),
      rate(0.08, 0.08, (ms) => this.reboot(ms)),
      rate(0.3, 0.3, (ms) =>
        this.send(EventCode.UnlistedDiagnostic, ms, { type: this.rng.int(0, 5), loopdata: "" }),
      ),
      rate(0.15, 0.15, (ms) =>
        this.send(EventCode.UnlistedDriverCard, ms, {
          type: 1,
          memo: this.profile.drivername || "unknown card",
        }),
      ),
      rate(0.15, 0.15, (ms) => this.geofence(ms)),
      rate(0.3, 0.2, (ms) => this.dropConnection(ms)),
    ];
  }

  private gsensor(ms: number): void {
    this.send(EventCode.GSensor, ms, { type: this.rng.int(1, 3), ...this.videoEventDetails(ms) });
    this.startAlertRecording(ms, RecordingKind.GsensorAlert);
    if (this.rng.chance(0.7)) {
      this.schedule(ms + this.rng.int(2, 5) * MINUTE_MS, (at) =>
        this.send(EventCode.SdBackupGsensor, at, { downloadtype: 2, loopdata: "" }),
      );
    }
  }

  private panicButton(ms: number): void {
    this.send(EventCode.TriggerIn, ms, this.videoEventDetails(ms));
    this.startAlertRecording(ms, RecordingKind.ButtonAlert);
    this.schedule(ms + this.rng.int(1, 3) * MINUTE_MS, (at) => this.send(EventCode.TriggerOut, at, {}));
  }

  private diskFailure(ms: number): void {
    if (this.diskError) return;
    this.diskError = true;
    this.send(EventCode.DiskError, ms, { type: 1 });
    this.schedule(ms + this.rng.int(10, 40) * MINUTE_MS, (at) => this.reboot(at));
  }

  private reboot(ms: number): void {
    this.diskError = false;
    this.send(EventCode.Reboot, ms, {});
  }

  private geofence(ms: number): void {
    const fenceid = this.rng.int(1, 12);
    this.send(EventCode.UnlistedGeofence, ms, {
      type: this.rng.int(0, 1),
      fenceid,
      fencename: `Depot ${fenceid}`,
      radius: this.rng.pick([200, 500, 1000, 2000]),
      centerx: roundTo(this.profile.home.lng + this.rng.between(-0.05, 0.05), 6),
      centery: roundTo(this.profile.home.lat + this.rng.between(-0.05, 0.05), 6),
      checkstatus: this.rng.int(0, 1),
      ...this.vehiclePosition(),
    });
  }

  /** Events that come with a loop-recording clip the service can download. */
  private videoEventDetails(ms: number): Partial<EventDetails> {
    const downloaded = this.rng.chance(0.5);
    const channels = Array.from({ length: this.profile.channels }, (_, i) => i + 1).join(",");
    return {
      downloadtype: 1,
      download: downloaded ? 1 : 0,
      try: downloaded ? this.rng.int(1, 3) : this.rng.int(0, 2),
      loopdata: JSON.stringify({ ch: channels, start: Math.floor(ms / SECOND_MS) - 10, pre: 10, post: 20 }),
      ...this.vehiclePosition(),
    };
  }

  private vehiclePosition(): Partial<EventDetails> {
    const { lat, lng } = this.vehicle;
    return this.hasFix ? { vehiclex: roundTo(lng, 6), vehicley: roundTo(lat, 6) } : {};
  }

  private currentFix(ms: number): Fix {
    const { lat, lng, speed, heading } = this.vehicle;
    return { epochMs: ms, lat, lng, speedKmh: speed, heading };
  }

  /**
   * A device event: it happened since the previous tick, and the device uploads it from this tick
   * on, so it reaches the service after an upload delay (now and then over a minute); while
   * disconnected it waits in the outbox. Arrival is never before the tick: an event cannot reach
   * the service before the simulation has produced it.
   */
  private send(appdevid: number, tickMs: number, details: Partial<EventDetails>): void {
    const eventMs = tickMs - this.rng.int(0, TICK_MS - 1);
    const event: DeviceEvent = { appdevid, eventMs, arrivalMs: tickMs, details };
    if (!this.online) {
      this.outbox.push(event);
      return;
    }
    const delay = this.rng.chance(0.9) ? this.rng.int(200, 5000) : this.rng.int(5000, 90_000);
    this.deliver({ ...event, arrivalMs: tickMs + delay });
  }

  /** Online/Offline are the service's own observations: logged the moment they happen. */
  private sendFromService(appdevid: number, ms: number): void {
    this.deliver({ appdevid, eventMs: ms, arrivalMs: ms, details: {} });
  }

  private schedule(atMs: number, run: (ms: number) => void): void {
    this.followUps.push({ atMs, run });
  }

  private runFollowUps(ms: number): void {
    if (!this.followUps.some((followUp) => followUp.atMs <= ms)) return;
    const due = this.followUps.filter((followUp) => followUp.atMs <= ms);
    this.followUps = this.followUps.filter((followUp) => followUp.atMs > ms);
    for (const followUp of due) followUp.run(ms);
  }
}
