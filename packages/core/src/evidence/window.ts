import { MINUTE_RECORD, MINUTES_PER_DAY } from "../devicecloud/schemas/records.js";

// Pure time arithmetic for an evidence clip. Every instant is epoch milliseconds; the service's
// own units (whole seconds, whole minutes, UNIX seconds of local midnights) appear only at the edges.

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const DAY_MS = MINUTES_PER_DAY * MINUTE_MS;
/** The playback download takes 1..30 whole minutes per request. */
const MAX_SEGMENT_MINUTES = 30;

/** The half-open interval [startMs, endMs). */
export interface EvidenceWindow {
  startMs: number;
  endMs: number;
}

/**
 * [event - before, event + after). The start is floored to the whole second, because the playback
 * timestamp has seconds precision and flooring keeps the event inside; the window lasts at least
 * one second, so that an event with no margins still gets a clip.
 */
export function evidenceWindow(eventMs: number, secondsBefore: number, secondsAfter: number): EvidenceWindow {
  if (!Number.isFinite(eventMs)) throw new RangeError(`event time ${eventMs} is not a finite number`);
  for (const seconds of [secondsBefore, secondsAfter])
    if (!(seconds >= 0 && Number.isFinite(seconds)))
      throw new RangeError(`margin ${seconds} s must be a finite number of seconds, 0 or more`);
  const startMs = Math.floor((eventMs - secondsBefore * SECOND_MS) / SECOND_MS) * SECOND_MS;
  return { startMs, endMs: Math.max(eventMs + secondsAfter * SECOND_MS, startMs + SECOND_MS) };
}

export interface PlaybackSegment {
  index: number;
  startMs: number;
  /** 1..30. */
  durationMinutes: number;
}

/**
 * The playback requests for a window: its length in whole minutes (rounded up), split into
 * consecutive requests of at most 30 minutes. 45 minutes give [30, 15]; 30:01 gives [30, 1].
 */
export function playbackSegments(window: EvidenceWindow): PlaybackSegment[] {
  const minutes = Math.ceil((window.endMs - window.startMs) / MINUTE_MS);
  const segments: PlaybackSegment[] = [];
  for (let done = 0; done < minutes; done += MAX_SEGMENT_MINUTES)
    segments.push({
      index: segments.length,
      startMs: window.startMs + done * MINUTE_MS,
      durationMinutes: Math.min(MAX_SEGMENT_MINUTES, minutes - done),
    });
  return segments;
}

/**
 * The `date` values (UNIX seconds of a local midnight, as /api/record wants them) of every local
 * day the window touches, at a fixed offset in minutes east of UTC (+330, -210...). DST is the
 * caller's business: it passes the offset in force.
 */
export function recordDaysTouched(window: EvidenceWindow, utcOffsetMinutes: number): number[] {
  if (!Number.isInteger(utcOffsetMinutes) || utcOffsetMinutes < -12 * 60 || utcOffsetMinutes > 14 * 60)
    throw new RangeError(`UTC offset ${utcOffsetMinutes} min is not whole minutes within -12:00..+14:00`);
  const offsetMs = utcOffsetMinutes * MINUTE_MS;
  const localDay = (instantMs: number) => Math.floor((instantMs + offsetMs) / DAY_MS);
  const days: number[] = [];
  // The end is exclusive: a window ending exactly at midnight does not touch the next day.
  for (let day = localDay(window.startMs); day <= localDay(window.endMs - 1); day++)
    days.push((day * DAY_MS - offsetMs) / SECOND_MS);
  return days;
}

/** A daily record map (1440 values, one per minute) beginning at `dateSeconds`. */
export interface DayMap {
  dateSeconds: number;
  map: readonly number[];
}

export interface Coverage {
  /** Minutes the window touches. */
  totalMinutes: number;
  /** Of those, minutes with video: map value 1 (normal) or 2 (alert). GPS only, none, or no map: not recorded. */
  recordedMinutes: number;
  /** Merged runs of touched minutes without video, clipped to the window. */
  missing: EvidenceWindow[];
  /** From the first to the last minute with video, clipped to the window; undefined if none. What a partly recorded window fetches. */
  recordedSpan?: EvidenceWindow;
}

/** How much of the window the daily maps say has video. Minute m of a map covers [date + m min, +1 min). */
export function coverage(window: EvidenceWindow, maps: readonly DayMap[]): Coverage {
  // Local midnights at whole-minute offsets fall on whole UTC minutes, so every map shares the
  // epoch-minute grid and a touched minute is simply an epoch minute.
  const firstMinute = Math.floor(window.startMs / MINUTE_MS);
  const totalMinutes = Math.ceil(window.endMs / MINUTE_MS) - firstMinute;
  const video = new Array<boolean>(totalMinutes).fill(false);
  for (const { dateSeconds, map } of maps) {
    if (map.length !== MINUTES_PER_DAY)
      throw new RangeError(`a daily map has ${map.length} values, not 1440`);
    if (dateSeconds % 60 !== 0)
      throw new RangeError(`a daily map starts at ${dateSeconds}, not a whole minute`);
    const mapStart = dateSeconds / 60 - firstMinute; // the map's minute 0 as an index into `video`
    for (let i = Math.max(0, mapStart); i < Math.min(totalMinutes, mapStart + MINUTES_PER_DAY); i++) {
      const value = map[i - mapStart];
      if (value === MINUTE_RECORD.normal || value === MINUTE_RECORD.alert) video[i] = true;
    }
  }

  const clip = (fromIndex: number, toIndex: number): EvidenceWindow => ({
    startMs: Math.max(window.startMs, (firstMinute + fromIndex) * MINUTE_MS),
    endMs: Math.min(window.endMs, (firstMinute + toIndex) * MINUTE_MS),
  });
  const missing: EvidenceWindow[] = [];
  let runStart: number | undefined;
  for (let i = 0; i <= totalMinutes; i++) {
    const gap = i < totalMinutes && !video[i];
    if (gap && runStart === undefined) runStart = i;
    if (!gap && runStart !== undefined) {
      missing.push(clip(runStart, i));
      runStart = undefined;
    }
  }
  const first = video.indexOf(true);
  const result: Coverage = {
    totalMinutes,
    recordedMinutes: video.filter(Boolean).length,
    missing,
  };
  if (first >= 0) result.recordedSpan = clip(first, video.lastIndexOf(true) + 1);
  return result;
}

/**
 * Whether the maps show any minute after the window with something on the card (video or GPS only):
 * the recorder had moved past the window, so what the window lacks it will never have. The card
 * records in time order, and a map reports the card, not what was uploaded (assumed: the spec does
 * not say how the service learns a device's record map).
 */
export function recordedAfter(window: EvidenceWindow, maps: readonly DayMap[]): boolean {
  const afterMinute = Math.ceil(window.endMs / MINUTE_MS);
  return maps.some(({ dateSeconds, map }) => {
    const from = Math.max(0, afterMinute - dateSeconds / 60);
    return map.slice(from).some((value) => value !== MINUTE_RECORD.none);
  });
}
