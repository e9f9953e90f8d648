/**
 * A device's link to the service: whether it is connected, what the service last heard from it,
 * and how its events get there. The service logs Online/Offline itself when a device connects or
 * disconnects, so those arrive at once; device events arrive after an upload delay, and events
 * produced while disconnected are uploaded after the reconnect (late, out of eventtime order). So is
 * the footage the service had not got when the link went down (card-visibility.ts).
 */

import type { CardVisibility } from "./card-visibility.js";
import type { DetailsAtEvent, DeviceEvent, DeviceStatus } from "./devicetypes.js";
import { TICK_MS } from "./devicetypes.js";
import { EventCode } from "./events.js";
import type { GpsTrack } from "./gpstrack.js";
import type { Fix } from "./nmea.js";
import type { Rng } from "./rng.js";
import { MINUTE_MS, SECOND_MS } from "./time.js";

export class Uplink {
  private connected: boolean;
  private dropEndsAt: number | undefined;
  private lastReportMs: number;
  private reportedFix: Fix | null;
  /** When the service last refreshed the fix in the device's status. */
  private statusFixMs: number;
  /** Events produced while disconnected, uploaded at the next connect. */
  private outbox: DeviceEvent[] = [];

  constructor(
    private readonly rng: Rng,
    private readonly deliver: (event: DeviceEvent) => void,
    /** The GPS history the service keeps of the device: every fix it received. */
    private readonly track: GpsTrack,
    /** See DeviceProfile.statusIntervalMs. */
    private readonly statusIntervalMs: number,
    /** What the service has of the card: told when the link goes down and comes back. */
    private readonly card: CardVisibility,
    initial: DeviceStatus,
  ) {
    this.connected = initial.online;
    this.lastReportMs = initial.lastReportMs;
    this.reportedFix = initial.reportedFix;
    this.statusFixMs = initial.lastReportMs;
  }

  get online(): boolean {
    return this.connected;
  }

  status(): DeviceStatus {
    return { online: this.connected, lastReportMs: this.lastReportMs, reportedFix: this.reportedFix };
  }

  /** Connects and uploads the outbox; `announce` logs Online (setOnline's caller logs its own). */
  connect(ms: number, announce: boolean): void {
    this.connected = true;
    this.card.connected();
    this.dropEndsAt = undefined;
    this.lastReportMs = ms;
    if (announce) this.fromService(EventCode.Online, ms);
    let arrivalMs = ms;
    for (const event of this.outbox) {
      arrivalMs += this.rng.int(200, 3000);
      this.deliver({ ...event, arrivalMs });
    }
    this.outbox = [];
  }

  /** The power went off: no reconnect until the device powers on again. */
  disconnect(ms: number, announce: boolean): void {
    if (this.connected && announce) this.fromService(EventCode.Offline, ms);
    if (this.connected) this.card.disconnected(ms);
    this.connected = false;
    this.dropEndsAt = undefined;
  }

  /** A network drop while powered: the device reconnects by itself a few minutes later. */
  drop(ms: number): void {
    if (!this.connected) return;
    this.fromService(EventCode.Offline, ms);
    this.card.disconnected(ms);
    this.connected = false;
    this.dropEndsAt = ms + this.rng.int(1, 6) * MINUTE_MS;
  }

  dropOver(ms: number): boolean {
    return !this.connected && this.dropEndsAt !== undefined && ms >= this.dropEndsAt;
  }

  /**
   * A tick's GPS report, which reaches the service only while connected: the GPS history keeps
   * every fix, the status only one per status interval (the first report after a long gap is due
   * at once).
   */
  report(ms: number, fix: Fix | null): void {
    if (!this.connected) return;
    if (fix) {
      const { lat, lng, speedKmh, heading } = fix;
      this.track.push({ time: ms / SECOND_MS, lat, lng, speed: speedKmh, dir: heading });
    }
    if (ms < this.statusFixMs + this.statusIntervalMs) return;
    this.reportedFix = fix;
    this.statusFixMs = ms;
  }

  /** The end of a tick: a connected device has been heard from. */
  heard(ms: number): void {
    if (this.connected) this.lastReportMs = ms;
  }

  /**
   * A device event: it happened since the previous tick, and the device uploads it from this tick
   * on, so it reaches the service after an upload delay (now and then over a minute); while
   * disconnected it waits in the outbox. Arrival is never before the tick: an event cannot reach
   * the service before the simulation has produced it.
   */
  send(appdevid: number, tickMs: number, details: DetailsAtEvent): void {
    const eventMs = tickMs - this.rng.int(0, TICK_MS - 1);
    const event: DeviceEvent = {
      appdevid,
      eventMs,
      arrivalMs: tickMs,
      details: typeof details === "function" ? details(eventMs) : details,
    };
    if (!this.connected) {
      this.outbox.push(event);
      return;
    }
    const delay = this.rng.chance(0.9) ? this.rng.int(200, 5000) : this.rng.int(5000, 90_000);
    this.deliver({ ...event, arrivalMs: tickMs + delay });
  }

  /** Online/Offline are the service's own observations: logged the moment they happen. */
  private fromService(appdevid: number, ms: number): void {
    this.deliver({ appdevid, eventMs: ms, arrivalMs: ms, details: {} });
  }
}
