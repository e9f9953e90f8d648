/**
 * What a device has recorded, minute by minute. This one store is the source of truth for the
 * SD card record list (endpoint 4), the daily record map (endpoint 9) and playback availability
 * (endpoint 8), so the three always agree; all three read it through the card's visibility
 * (card-visibility.ts: retention and upload), so they agree on what the service cannot show too.
 */
import type { CardVisibility } from "./card-visibility.js";
import { DAY_MS, MINUTES_PER_DAY } from "./time.js";

/** Stored per minute. Two alert kinds are kept apart because the record list tells them apart. */
export const RecordingKind = {
  None: 0,
  Normal: 1,
  GsensorAlert: 2,
  GpsOnly: 3,
  ButtonAlert: 4,
} as const;
export type RecordingKind = (typeof RecordingKind)[keyof typeof RecordingKind];

/** Daily map values: 0 no record, 1 normal, 2 alert, 3 GPS only. */
export type DailyMapValue = 0 | 1 | 2 | 3;

export interface RecordEntry {
  /** UNIX seconds. */
  start: number;
  /** UNIX seconds, exclusive: the start of the first minute after the file. */
  end: number;
  /** 0 = normal record, 1 = gsensor, 2 = push button. */
  type: 0 | 1 | 2;
}

const MAP_VALUE: Readonly<Record<RecordingKind, DailyMapValue>> = { 0: 0, 1: 1, 2: 2, 3: 3, 4: 2 };
/** Which kind wins when two cover the same minute: alerts > normal video > GPS only > nothing. */
const PRIORITY: Readonly<Record<RecordingKind, number>> = { 0: 0, 1: 2, 2: 3, 3: 1, 4: 3 };
const MAP_PRIORITY: Readonly<Record<DailyMapValue, number>> = { 0: 0, 1: 2, 2: 3, 3: 1 };
const RECORD_TYPE: Partial<Record<RecordingKind, RecordEntry["type"]>> = {
  [RecordingKind.Normal]: 0,
  [RecordingKind.GsensorAlert]: 1,
  [RecordingKind.ButtonAlert]: 2,
};
/** Devices cut continuous recording into files of this many minutes, like real recorders. */
const FILE_MINUTES = 15;

export class DeviceRecordings {
  /** Day number (UTC) -> one kind per minute of that day; days without recording are absent. */
  private readonly days = new Map<number, Uint8Array>();

  constructor(readonly visibility: CardVisibility) {}

  /** Records `kind` for the minute unless something of higher priority is already there. */
  mark(minute: number, kind: RecordingKind): void {
    if (PRIORITY[kind] > PRIORITY[this.kindAt(minute)]) this.write(minute, kind);
  }

  /**
   * Overwrites minutes [fromMinute, toMinute) with `kind` (the state-injection path): what the
   * service shows, uploaded even while the device is disconnected.
   */
  set(fromMinute: number, toMinute: number, kind: RecordingKind): void {
    for (let minute = fromMinute; minute < toMinute; minute++) this.write(minute, kind);
    this.visibility.uploaded(fromMinute, toMinute);
  }

  kindAt(minute: number): RecordingKind {
    const day = this.days.get(Math.floor(minute / MINUTES_PER_DAY));
    return (day?.[mod(minute, MINUTES_PER_DAY)] ?? RecordingKind.None) as RecordingKind;
  }

  /** What the service shows of the minute: nothing where it is overwritten or not uploaded yet. */
  shownAt(minute: number): RecordingKind {
    return this.visibility.hides(minute) ? RecordingKind.None : this.kindAt(minute);
  }

  /** True when the service can play any minute of [fromMinute, toMinute) (normal or alert video). */
  hasVideo(fromMinute: number, toMinute: number): boolean {
    for (let minute = fromMinute; minute < toMinute; minute++) {
      if (RECORD_TYPE[this.shownAt(minute)] !== undefined) return true;
    }
    return false;
  }

  /**
   * 1440 values starting at `startSec`. When `startSec` is not on a minute boundary, each entry
   * covers parts of two stored minutes and shows the higher-priority value of the two.
   */
  dailyMap(startSec: number): DailyMapValue[] {
    const firstMinute = Math.floor(startSec / 60);
    const straddles = startSec % 60 !== 0;
    return Array.from({ length: MINUTES_PER_DAY }, (_, offset) => {
      const value = MAP_VALUE[this.shownAt(firstMinute + offset)];
      if (!straddles) return value;
      const next = MAP_VALUE[this.shownAt(firstMinute + offset + 1)];
      return MAP_PRIORITY[next] > MAP_PRIORITY[value] ? next : value;
    });
  }

  /** The SD card's files, ascending: runs of one video kind, cut every FILE_MINUTES minutes. */
  recordList(): RecordEntry[] {
    const entries: RecordEntry[] = [];
    let runKind: RecordingKind = RecordingKind.None;
    let runStart = 0;
    let previousMinute = Number.NaN;
    const closeRun = (endMinute: number) => {
      const type = RECORD_TYPE[runKind];
      if (type === undefined) return;
      for (let fileStart = runStart; fileStart < endMinute; fileStart += FILE_MINUTES) {
        entries.push({
          start: fileStart * 60,
          end: Math.min(fileStart + FILE_MINUTES, endMinute) * 60,
          type,
        });
      }
    };
    this.forgetOverwrittenDays();
    for (const dayNumber of [...this.days.keys()].sort((a, b) => a - b)) {
      for (let offset = 0; offset < MINUTES_PER_DAY; offset++) {
        const minute = dayNumber * MINUTES_PER_DAY + offset;
        const kind = this.shownAt(minute);
        if (kind !== runKind || minute !== previousMinute + 1) {
          closeRun(previousMinute + 1);
          runKind = kind;
          runStart = minute;
        }
        previousMinute = minute;
      }
    }
    closeRun(previousMinute + 1);
    return entries;
  }

  /** Days wholly before the card's horizon can never be shown again: their memory is given back. */
  forgetOverwrittenDays(): void {
    const firstKeptDay = Math.floor(this.visibility.horizonMs() / DAY_MS);
    for (const dayNumber of this.days.keys()) if (dayNumber < firstKeptDay) this.days.delete(dayNumber);
  }

  private write(minute: number, kind: RecordingKind): void {
    const dayNumber = Math.floor(minute / MINUTES_PER_DAY);
    let day = this.days.get(dayNumber);
    if (!day) {
      if (kind === RecordingKind.None) return;
      day = new Uint8Array(MINUTES_PER_DAY);
      this.days.set(dayNumber, day);
    }
    day[mod(minute, MINUTES_PER_DAY)] = kind;
  }
}

function mod(value: number, divisor: number): number {
  return ((value % divisor) + divisor) % divisor;
}
