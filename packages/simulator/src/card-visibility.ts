/**
 * What the service can show of a device's SD card (record list, daily record map, playback): the
 * card's minutes, less those its loop has overwritten and those the device has not uploaded yet.
 *
 * The spec says nothing of either, so the model is:
 * - **Retention.** A card holds its last `retentionDays` whole days; older minutes are overwritten.
 *   The horizon moves with the clock, in calendar days as a fleet operator states a card's
 *   retention, whether or not the vehicle drives (recorders keep a parking-mode loop). Overwritten
 *   is for good: a longer retention set later does not bring old minutes back.
 * - **Upload.** While connected, the service learns of each minute as it is recorded (the minute
 *   being recorded is shown, as before this model). A device that loses its link (power-off, a
 *   network drop) has not uploaded its last `UNSYNCED_MS` yet: those minutes, and any recorded
 *   while disconnected, are shown once it reconnects, all at once.
 */

import { createRng } from "./rng.js";
import { DAY_MS, MINUTE_MS } from "./time.js";

/** How far behind the card the service is when a device drops off: the minutes then not uploaded. */
export const UNSYNCED_MS = 2 * MINUTE_MS;

/** Whole days a card may hold: one day to a year. */
export const RETENTION_DAYS_RANGE = { min: 1, max: 365 } as const;

/**
 * Days a card holds depend on its size, channels and bitrate: a 32 GB card behind four D1 cameras
 * loops in about 3 days, 256 GB behind two in about two weeks. Weighted toward the common week.
 */
const SEEDED_RETENTION_DAYS = [3, 4, 5, 7, 7, 7, 10, 14, 14] as const;

/** A device's seeded retention, from a stream of its own (so no other draw moves). */
export function seededRetentionDays(seed: number, deviceIndex: number): number {
  return createRng(seed, "card-retention", deviceIndex).pick(SEEDED_RETENTION_DAYS);
}

export class CardVisibility {
  private nowMs: number;
  /** The horizon of retentions set before the current one: overwritten minutes stay overwritten. */
  private overwrittenBeforeMs = Number.NEGATIVE_INFINITY;
  /** First minute not uploaded yet, while the device is disconnected; undefined while connected. */
  private unsyncedFromMinute: number | undefined;
  /** Minutes set by state injection while disconnected: shown all the same ([from, to) pairs). */
  private injected: [number, number][] = [];

  constructor(
    private days: number,
    startMs: number,
  ) {
    this.nowMs = startMs;
  }

  get retentionDays(): number {
    return this.days;
  }

  /** The first instant the card still holds. */
  horizonMs(): number {
    return Math.max(this.overwrittenBeforeMs, this.nowMs - this.days * DAY_MS);
  }

  /** The clock moved: the horizon moves with it. */
  advanceTo(ms: number): void {
    this.nowMs = ms;
  }

  setRetentionDays(days: number): void {
    this.overwrittenBeforeMs = this.horizonMs();
    this.days = days;
  }

  /** The link went down at `ms`: the last UNSYNCED_MS and everything from now on wait for the upload. */
  disconnected(ms: number): void {
    this.unsyncedFromMinute ??= Math.floor((ms - UNSYNCED_MS) / MINUTE_MS);
  }

  /** The link is back: the backlog is uploaded. */
  connected(): void {
    this.unsyncedFromMinute = undefined;
    this.injected = [];
  }

  /** State injection (setRecording) writes what the service shows: those minutes count as uploaded. */
  uploaded(fromMinute: number, toMinute: number): void {
    if (this.unsyncedFromMinute !== undefined) this.injected.push([fromMinute, toMinute]);
  }

  /** Whether the service cannot show the minute: overwritten on the card, or not uploaded yet. */
  hides(minute: number): boolean {
    if (minute * MINUTE_MS < this.horizonMs()) return true;
    if (this.unsyncedFromMinute === undefined || minute < this.unsyncedFromMinute) return false;
    return !this.injected.some(([from, to]) => from <= minute && minute < to);
  }
}
