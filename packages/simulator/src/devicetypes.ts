/** The shapes a simulated device shares with the simulation and with its own parts. */

import type { CameraFailureMode } from "./camera.js";
import type { EventDetails } from "./eventlog.js";
import type { DeviceProfile } from "./fleet.js";
import type { Vehicle } from "./motion.js";
import type { Fix } from "./nmea.js";
import type { Rng } from "./rng.js";
import { SECOND_MS } from "./time.js";

export const TICK_MS = 5 * SECOND_MS;

export type DeviceMode = "off" | "parked" | "driving";

/**
 * An event's details, or how to make them once its own time is known: the details that say where
 * the vehicle was must be for the event's time, which the uplink draws within the tick.
 */
export type DetailsAtEvent = Partial<EventDetails> | ((eventMs: number) => Partial<EventDetails>);

/** An event as the device produced it, before the service logs it. */
export interface DeviceEvent {
  appdevid: number;
  eventMs: number;
  /** When it reaches the service (becomes `updatetime`). */
  arrivalMs: number;
  details: Partial<EventDetails>;
}

/** The moving parts of a device, for ground truth. */
export interface DeviceState {
  mode: DeviceMode;
  online: boolean;
  /** Set by setOnline with hold: the device stays in that connectivity until released. */
  pinned: "online" | "offline" | undefined;
  lat: number;
  lng: number;
  speedKmh: number;
  heading: number;
  hasFix: boolean;
  diskError: boolean;
  /** "ok", or how a failed camera leaves the recorder (see camera.ts). */
  camera: CameraFailureMode | "ok";
  /** Whole days the SD card holds now (seeded, set by an option or by setRetentionDays). */
  retentionDays: number;
}

/** What the status endpoints show about a device. */
export interface DeviceStatus {
  online: boolean;
  /** Last time the service heard from the device. */
  lastReportMs: number;
  /** The position the service last received; null when the device reported having no fix. */
  reportedFix: Fix | null;
}

/**
 * What a device's parts (recorder, drive watch, random events) share, so that each draws from
 * the device's one seeded stream and reports through the device's one uplink.
 */
export interface DeviceContext {
  readonly profile: DeviceProfile;
  readonly rng: Rng;
  readonly vehicle: Vehicle;
  /** A device event that happened since the previous tick (see Uplink.send). */
  send(appdevid: number, tickMs: number, details: DetailsAtEvent): void;
  /** Runs `run` at the first tick at or after `atMs`, unless the device powers off first. */
  schedule(atMs: number, run: (ms: number) => void): void;
  /**
   * `details` plus where the vehicle was at the event's own time, as the GPS knows it: no position
   * without a fix. Only for events sent once the vehicle has moved for the tick (not follow-ups).
   */
  located(details: Partial<EventDetails>): DetailsAtEvent;
}
