/**
 * SimulatorControl: what tests, benchmarks and the CLI use to drive the simulator and read its
 * ground truth, next to the HTTP interface the client sees.
 */

import { CAMERA_FAILURE_MODES, type CameraFailureMode } from "./camera.js";
import type { EventCoordinates } from "./coordinates.js";
import type { DeviceActivity } from "./device.js";
import type { DeviceState } from "./devicetypes.js";
import type { EventDetails } from "./eventlog.js";
import { EventCode, type SimEvent } from "./events.js";
import type { FaultInjector, FaultRule } from "./faults.js";
import type { DeviceProfile } from "./fleet.js";
import type { GpsPoint } from "./gpstrack.js";
import { checkRetentionDays, type EventQueryHarshOptions, resolveEventCoordinates } from "./options.js";
import type { PlaybackRecord } from "./playback.js";
import { type DailyMapValue, type RecordEntry, RecordingKind } from "./recordings.js";
import type { RequestLogEntry } from "./server.js";
import type { AdvanceReport, Simulation } from "./simulation.js";
import { MINUTE_MS, SECOND_MS } from "./time.js";
import type { GroundTruth } from "./truthtrack.js";

/** A device's identity, configuration and hidden traits, with its current state. */
export type DeviceSnapshot = Omit<DeviceProfile, "index" | "tickPhaseMs"> & DeviceState;

/** An event to log now: `appdevid` is required, every other field may be overridden. */
export interface EventInjection extends Partial<EventDetails> {
  appdevid: number;
  /** Any id, registered or not. Default: the first device. */
  deviceid?: string;
  /** Must exceed every serial logged so far. Default: the next sparse serial. */
  serialno?: bigint;
  /** A Date or an ISO 8601 string. Default: now. */
  eventtime?: Date | string;
  /** Default: the same as `eventtime`. */
  eventtimeutc?: string;
  /** When the service received it: a Date or an ISO 8601 string. Default: now. */
  updatetime?: Date | string;
}

export interface SetOnlineOptions {
  /** Log the Online (0) or Offline (3) event now. Default true. */
  logEvent?: boolean;
  /** Keep the device in this state (no trips ending in power-off, no network drops) until release(). Default true. */
  hold?: boolean;
}

export interface ParkOfflineOptions {
  /** Come back by itself after this many ms (power on, Online, back to the simulation). Default: stay parked. */
  forMs?: number;
}

export interface CameraFailure {
  /** "gps-only": daily map value 3 while powered; "no-record": 0. Either way playback is refused. */
  mode: CameraFailureMode;
  /** The channel the VideoLoss event names (its `type`). Default 1. */
  channel?: number;
}

export interface SimulatorControl {
  now(): Date;
  /** Moves the virtual clock forward and returns the events logged meanwhile (ascending serialno). */
  advance(ms: number): SimEvent[];
  /** Called after every advance (manual or clock-driven); returns the unsubscribe function. */
  onAdvance(listener: (report: AdvanceReport) => void): () => void;
  injectEvent(event: EventInjection): SimEvent;
  /** Connects or disconnects a device now; returns the logged event, if any. */
  setOnline(deviceid: string, online: boolean, options?: SetOnlineOptions): SimEvent | undefined;
  /** Hands a device held by setOnline or parkOffline back to the simulation. */
  release(deviceid: string): void;
  /**
   * Parks a device with its power off now (the vehicle stops): no GPS points, no recording, and
   * the footage of its last minutes not uploaded until it is back. It stays so until
   * `setOnline(deviceid, true)`, `release(deviceid)` or, with `forMs`, by itself then. Returns the
   * Offline event, logged now when the device was online.
   */
  parkOffline(deviceid: string, options?: ParkOfflineOptions): SimEvent | undefined;
  /**
   * Fails the device's camera now: a VideoLoss event (sent by the device, so logged at a later
   * advance), then no video until `repairCamera`: GPS-only minutes or none while powered, playback
   * of those minutes refused. The GPS history goes on.
   */
  failCamera(deviceid: string, failure: CameraFailure): void;
  repairCamera(deviceid: string): void;
  /**
   * How many whole days (1..365) the device's SD card holds from now on. A shorter retention
   * overwrites at once; a longer one does not bring overwritten minutes back.
   */
  setRetentionDays(deviceid: string, days: number): void;
  /** The oldest instant the device's SD card still holds (now less its retention, or later). */
  cardHorizon(deviceid: string): Date;
  /**
   * Overwrites the recorded minutes overlapping [from, to) with a daily-map value: 0 none,
   * 1 normal, 2 alert (G-sensor), 3 GPS only. Minutes still ahead of the clock can be recorded
   * over by the simulation as it advances.
   */
  setRecording(deviceid: string, from: Date, to: Date, value: DailyMapValue): void;
  devices(): DeviceSnapshot[];
  /** Every logged event, ascending serialno. */
  events(): SimEvent[];
  /**
   * Where a device's vehicle really was at `at`, how fast and which way (see truthtrack.ts);
   * undefined for an unknown device or a time before the simulated history.
   */
  groundTruth(deviceid: string, at: Date): GroundTruth | undefined;
  /** GPS history of a device, inclusive range (default: all). */
  gpsTrack(deviceid: string, from?: Date, to?: Date): GpsPoint[];
  /** The SD card record list of a device (what endpoint 4 returns). */
  recordings(deviceid: string): RecordEntry[];
  /** The 1440-minute map starting at `start` (what endpoint 9 returns). */
  dailyRecordMap(deviceid: string, start: Date): DailyMapValue[];
  /** Replaces the event query harsh modes; unspecified ones return to their defaults. */
  setHarsh(options: EventQueryHarshOptions): void;
  /**
   * How device events logged from now on write vehiclex/vehicley (see SimulatorOptions); events
   * already logged keep theirs, as a service's stored events would.
   */
  setEventCoordinates(mode: EventCoordinates): void;
  faults: {
    add(rule: FaultRule): void;
    clear(): void;
    list(): FaultRule[];
  };
  /** Every request handled, in arrival order. */
  readonly requests: readonly RequestLogEntry[];
  resetRequests(): void;
  /** Every playback stream served (live objects, updated while streaming). */
  readonly playbacks: readonly PlaybackRecord[];
}

export interface ControlDependencies {
  simulation: Simulation;
  faults: FaultInjector;
  setHarsh(options: EventQueryHarshOptions): void;
  requestLog: RequestLogEntry[];
  playbacks: PlaybackRecord[];
}

const KIND_OF_MAP_VALUE: Readonly<Record<DailyMapValue, RecordingKind>> = {
  0: RecordingKind.None,
  1: RecordingKind.Normal,
  2: RecordingKind.GsensorAlert,
  3: RecordingKind.GpsOnly,
};

export function createControl(dependencies: ControlDependencies): SimulatorControl {
  const { simulation, faults, requestLog, playbacks } = dependencies;
  const device = (deviceid: string): DeviceActivity => {
    const found = simulation.device(deviceid);
    if (!found) throw new Error(`unknown device ${deviceid}`);
    return found;
  };
  return {
    now: () => new Date(simulation.now()),
    advance: (ms) => simulation.advance(ms),
    onAdvance: (listener) => simulation.onAdvance(listener),
    injectEvent: ({ appdevid, deviceid, serialno, eventtime, eventtimeutc, updatetime, ...details }) => {
      const firstDevice = simulation.devices[0] as DeviceActivity;
      return simulation.log.append({
        deviceid: deviceid ?? firstDevice.profile.deviceid,
        appdevid,
        eventMs: instant("eventtime", eventtime) ?? simulation.now(),
        updateMs: instant("updatetime", updatetime) ?? simulation.now(),
        details: withoutUndefined(details),
        ...(eventtimeutc !== undefined && { eventtimeutc }),
        ...(serialno !== undefined && { serialno }),
      }).event;
    },
    setOnline: (deviceid, online, { logEvent = true, hold = true } = {}) => {
      const target = device(deviceid);
      if (online) target.forceOnline(simulation.now(), hold);
      else target.forceOffline(simulation.now(), hold);
      if (!logEvent) return undefined;
      const appdevid = online ? EventCode.Online : EventCode.Offline;
      return simulation.logNow({ deviceid, appdevid, eventMs: simulation.now() });
    },
    release: (deviceid) => device(deviceid).release(),
    parkOffline: (deviceid, { forMs } = {}) => {
      const target = device(deviceid);
      if (forMs !== undefined && !(Number.isFinite(forMs) && forMs >= 0))
        throw new Error(`parkOffline: forMs must be a non-negative number, got ${forMs}`);
      const wasOnline = target.status().online;
      const nowMs = simulation.now();
      target.parkOffline(nowMs, forMs === undefined ? undefined : nowMs + forMs);
      return wasOnline
        ? simulation.logNow({ deviceid, appdevid: EventCode.Offline, eventMs: nowMs })
        : undefined;
    },
    failCamera: (deviceid, { mode, channel = 1 }) => {
      const target = device(deviceid);
      if (!CAMERA_FAILURE_MODES.includes(mode)) throw new Error(`failCamera: unknown mode ${String(mode)}`);
      if (!Number.isInteger(channel) || channel < 1 || channel > target.profile.channels)
        throw new Error(`failCamera: channel must be 1..${target.profile.channels}, got ${channel}`);
      target.failCamera(simulation.now(), mode, channel);
    },
    repairCamera: (deviceid) => device(deviceid).repairCamera(),
    setRetentionDays: (deviceid, days) =>
      device(deviceid).setRetentionDays(checkRetentionDays("setRetentionDays", days)),
    cardHorizon: (deviceid) => new Date(device(deviceid).recordings.visibility.horizonMs()),
    setRecording: (deviceid, from, to, value) => {
      const kind = KIND_OF_MAP_VALUE[value];
      if (kind === undefined) throw new Error(`setRecording: value must be 0..3, got ${value}`);
      const fromMinute = Math.floor(from.getTime() / MINUTE_MS);
      const toMinute = Math.ceil(to.getTime() / MINUTE_MS);
      device(deviceid).recordings.set(fromMinute, toMinute, kind);
    },
    devices: () =>
      simulation.devices.map((activity) => {
        const { index, tickPhaseMs, ...profile } = activity.profile;
        return { ...profile, ...activity.state() };
      }),
    events: () => simulation.log.all().map((entry) => entry.event),
    groundTruth: (deviceid, at) => simulation.device(deviceid)?.truth.at(at.getTime()),
    gpsTrack: (deviceid, from, to) =>
      device(deviceid).track.range(
        from ? Math.ceil(from.getTime() / SECOND_MS) : Number.NEGATIVE_INFINITY,
        to ? Math.floor(to.getTime() / SECOND_MS) : Number.POSITIVE_INFINITY,
      ),
    recordings: (deviceid) => device(deviceid).recordings.recordList(),
    dailyRecordMap: (deviceid, start) =>
      device(deviceid).recordings.dailyMap(Math.floor(start.getTime() / SECOND_MS)),
    setHarsh: (options) => dependencies.setHarsh(options),
    setEventCoordinates: (mode) => {
      simulation.eventCoordinates = resolveEventCoordinates(mode);
    },
    faults: {
      add: (rule) => faults.add(rule),
      clear: () => faults.clear(),
      list: () => faults.list(),
    },
    get requests() {
      return requestLog;
    },
    resetRequests: () => {
      requestLog.length = 0;
    },
    get playbacks() {
      return playbacks;
    },
  };
}

function instant(name: string, value: Date | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const epochMs = typeof value === "string" ? Date.parse(value) : value.getTime();
  if (Number.isNaN(epochMs)) throw new Error(`injectEvent: ${name} is not a valid time`);
  return epochMs;
}

/** `{ type: undefined }` means "not overridden", not "set to undefined". */
function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
