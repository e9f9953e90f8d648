/**
 * The simulated service state: the fleet, the event log and the virtual "now". Time only moves
 * through `advance`, which runs every device up to the new time and then logs, in arrival order,
 * the events that have reached the service by then.
 */

import { seededRetentionDays } from "./card-visibility.js";
import { type EventCoordinates, writeCoordinates } from "./coordinates.js";
import { DeviceActivity } from "./device.js";
import type { DeviceEvent } from "./devicetypes.js";
import { type EventDraft, EventLog } from "./eventlog.js";
import type { SimEvent } from "./events.js";
import { createFleet } from "./fleet.js";
import type { ResolvedOptions } from "./options.js";
import { createRng } from "./rng.js";
import { HOUR_MS } from "./time.js";

export interface AdvanceReport {
  from: Date;
  to: Date;
  /** Events logged during the advance, ascending serialno. */
  events: SimEvent[];
}

interface PendingEvent {
  deviceIndex: number;
  /** Per-device sequence: keeps the order of same-time events independent of how time was advanced. */
  sequence: number;
  deviceid: string;
  event: DeviceEvent;
}

export class Simulation {
  readonly devices: readonly DeviceActivity[];
  readonly log: EventLog;
  /** How device events logged from now on write vehiclex/vehicley; logged events keep theirs. */
  eventCoordinates: EventCoordinates;
  private readonly byId: ReadonlyMap<string, DeviceActivity>;
  private readonly listeners = new Set<(report: AdvanceReport) => void>();
  private pending: PendingEvent[] = [];
  private nowMs: number;

  constructor(options: ResolvedOptions) {
    const { seed } = options;
    this.eventCoordinates = options.eventCoordinates;
    this.nowMs = options.clockStartMs - Math.round(options.historyHours * HOUR_MS);
    this.log = new EventLog(options.serialStart, createRng(seed, "serial-gaps"));
    const profiles = createFleet(seed, options.devices, options.timeZoneOffsetMinutes, options.identities);
    this.devices = profiles.map((profile) => {
      let sequence = 0;
      return new DeviceActivity(
        profile,
        {
          rng: createRng(seed, "device-activity", profile.index),
          cameraRng: options.randomCameraFailures
            ? createRng(seed, "camera-failures", profile.index)
            : undefined,
          retentionDays: options.retentionDays[profile.index] ?? seededRetentionDays(seed, profile.index),
        },
        this.nowMs,
        (event) =>
          this.pending.push({
            deviceIndex: profile.index,
            sequence: sequence++,
            deviceid: profile.deviceid,
            event,
          }),
      );
    });
    this.byId = new Map(this.devices.map((device) => [device.profile.deviceid, device]));
    this.advance(options.clockStartMs - this.nowMs);
  }

  now(): number {
    return this.nowMs;
  }

  device(deviceid: string): DeviceActivity | undefined {
    return this.byId.get(deviceid);
  }

  advance(ms: number): SimEvent[] {
    if (!Number.isFinite(ms) || ms < 0)
      throw new Error(`advance: expected a non-negative number of ms, got ${ms}`);
    const fromMs = this.nowMs;
    const toMs = fromMs + Math.floor(ms);
    for (const device of this.devices) device.runUntil(toMs);
    this.nowMs = toMs;
    const events = this.logArrived();
    const report = { from: new Date(fromMs), to: new Date(toMs), events };
    for (const listener of this.listeners) listener(report);
    return events;
  }

  /** Logs an event at the current virtual time (injection and `setOnline`). */
  logNow(draft: Omit<EventDraft, "updateMs">): SimEvent {
    return this.log.append({ ...draft, updateMs: this.nowMs }).event;
  }

  onAdvance(listener: (report: AdvanceReport) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private logArrived(): SimEvent[] {
    const arrived = this.pending.filter((pending) => pending.event.arrivalMs <= this.nowMs);
    if (arrived.length === 0) return [];
    this.pending = this.pending.filter((pending) => pending.event.arrivalMs > this.nowMs);
    arrived.sort(
      (a, b) =>
        a.event.arrivalMs - b.event.arrivalMs || a.deviceIndex - b.deviceIndex || a.sequence - b.sequence,
    );
    return arrived.map(
      ({ deviceid, event }) =>
        this.log.append({
          deviceid,
          appdevid: event.appdevid,
          eventMs: event.eventMs,
          updateMs: event.arrivalMs,
          details: writeCoordinates(event.details, this.eventCoordinates),
        }).event,
    );
  }
}
