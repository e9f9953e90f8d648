/**
 * Device-cloud simulator: an independent implementation of the vendor's device cloud API (what
 * this project uses of it: docs/device-cloud.md) over HTTP on 127.0.0.1, with a seeded synthetic
 * fleet, a virtual clock, state injection, harsh modes and fault injection.
 */
import { Accounts } from "./auth.js";
import { startClockDriver } from "./clock.js";
import { createControl, type SimulatorControl } from "./control.js";
import { FaultInjector } from "./faults.js";
import { type Account, resolveHarsh, resolveOptions, type SimulatorOptions } from "./options.js";
import type { PlaybackRecord } from "./playback.js";
import { createRng } from "./rng.js";
import { type RequestLogEntry, startServer } from "./server.js";
import { Simulation } from "./simulation.js";
import { clipVideos } from "./video/clip-videos.js";

export { passwordDigest } from "./auth.js";
export { CAMERA_FAILURE_MODES, type CameraFailureMode } from "./camera.js";
export { RETENTION_DAYS_RANGE, UNSYNCED_MS } from "./card-visibility.js";
export { encodeClip } from "./clip.js";
export type {
  CameraFailure,
  DeviceSnapshot,
  EventInjection,
  ParkOfflineOptions,
  SetOnlineOptions,
  SimulatorControl,
} from "./control.js";
export { EVENT_COORDINATES, type EventCoordinates } from "./coordinates.js";
export type { DeviceMode } from "./devicetypes.js";
export type { EndpointName } from "./endpoints.js";
export { EVENT_COLUMNS, EventCode, type EventColumn, type SimEvent, type WireEvent } from "./events.js";
export type { FaultKind, FaultRule } from "./faults.js";
export type { DeviceSettings } from "./fleet.js";
export type { GpsPoint, WireGpsPoint } from "./gpstrack.js";
export type {
  Account,
  ClockOptions,
  DeviceIdentity,
  EventQueryHarshOptions,
  SimulatorOptions,
} from "./options.js";
export type { PlaybackRecord } from "./playback.js";
export type { DailyMapValue, RecordEntry } from "./recordings.js";
export type { RequestLogEntry } from "./server.js";
export type { AdvanceReport } from "./simulation.js";
export type { GroundTruth } from "./truthtrack.js";
export type { ClipSpec } from "./video/clip-frames.js";

export interface Simulator {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:43123 */
  url: string;
  /** The accounts with their PLAIN passwords (requests carry the uppercase SHA-256). */
  accounts: Account[];
  control: SimulatorControl;
  /** Stops the clock and closes the server and every connection, in-flight playback included. */
  close(): Promise<void>;
}

export async function start(options: SimulatorOptions = {}): Promise<Simulator> {
  const resolved = resolveOptions(options);
  const simulation = new Simulation(resolved);
  const faults = new FaultInjector(resolved.seed, resolved.faults);
  const accounts = new Accounts(resolved.accounts);
  let harsh = resolved.harsh;
  const requestLog: RequestLogEntry[] = [];
  const playbacks: PlaybackRecord[] = [];
  const server = await startServer(resolved.port, {
    routes: {
      simulation,
      accounts,
      harsh: () => harsh,
      harshRng: createRng(resolved.seed, "harsh-duplicates"),
      timeZoneOffsetMinutes: resolved.timeZoneOffsetMinutes,
    },
    playback: {
      simulation,
      accounts,
      bitrates: resolved.bitrates,
      seed: resolved.seed,
      clipVideo: (spec) => clipVideos.video(spec),
    },
    faults,
    requestLog,
    playbacks,
  });
  const stopClock =
    resolved.clockSpeed > 0
      ? startClockDriver(resolved.clockSpeed, (ms) => simulation.advance(ms))
      : undefined;
  const control = createControl({
    simulation,
    faults,
    requestLog,
    playbacks,
    setHarsh: (harshOptions) => {
      harsh = resolveHarsh(harshOptions);
    },
  });
  return {
    url: server.url,
    accounts: resolved.accounts.map((account) => ({ ...account })),
    control,
    close: async () => {
      stopClock?.();
      await server.close();
    },
  };
}
