/** The service's event log: events in ascending serialno, with sparse seeded serial numbers. */
import type { SimEvent } from "./events.js";
import type { Rng } from "./rng.js";
import { isoMillis } from "./time.js";

/** Everything about an event except who it is, when it happened, and when it arrived. */
export type EventDetails = Omit<
  SimEvent,
  "serialno" | "deviceid" | "appdevid" | "eventtime" | "eventtimeutc" | "updatetime"
>;

export const DEFAULT_EVENT_DETAILS: Readonly<EventDetails> = {
  type: 0,
  download: 0,
  try: 0,
  fenceid: null,
  fencename: null,
  radius: null,
  centerx: null,
  centery: null,
  vehiclex: null,
  vehicley: null,
  downloadtype: 0,
  checkstatus: null,
  memo: null,
  loopdata: null,
};

export interface EventDraft {
  deviceid: string;
  appdevid: number;
  eventMs: number;
  /** Arrival at the service: becomes `updatetime`. */
  updateMs: number;
  details?: Partial<EventDetails>;
  /** Only for injected events; must exceed every serial logged so far. */
  serialno?: bigint;
  /** Only for injected events; by default the same as `eventtime`. */
  eventtimeutc?: string;
}

/** A logged event plus the numeric times the filters compare. */
export interface LoggedEvent {
  readonly event: SimEvent;
  readonly eventMs: number;
  readonly updateMs: number;
}

export class EventLog {
  private readonly entries: LoggedEvent[] = [];
  private lastSerial: bigint | undefined;

  constructor(
    private readonly serialStart: bigint,
    private readonly gapRng: Rng,
  ) {}

  append(draft: EventDraft): LoggedEvent {
    const serialno = draft.serialno ?? this.nextSerial();
    if (this.lastSerial !== undefined && serialno <= this.lastSerial) {
      throw new Error(`serialno ${serialno} must be greater than the last logged ${this.lastSerial}`);
    }
    this.lastSerial = serialno;
    const eventtime = isoMillis(draft.eventMs);
    const event: SimEvent = Object.freeze({
      serialno,
      deviceid: draft.deviceid,
      eventtime,
      eventtimeutc: draft.eventtimeutc ?? eventtime,
      updatetime: isoMillis(draft.updateMs),
      appdevid: draft.appdevid,
      ...DEFAULT_EVENT_DETAILS,
      ...draft.details,
    });
    const entry: LoggedEvent = { event, eventMs: draft.eventMs, updateMs: draft.updateMs };
    this.entries.push(entry);
    return entry;
  }

  all(): readonly LoggedEvent[] {
    return this.entries;
  }

  /** Index of the first event whose serialno is greater than `serial` (binary search). */
  indexAfter(serial: bigint): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.entries[middle] as LoggedEvent).event.serialno > serial) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /**
   * Serials increase with gaps, as if other accounts' events were interleaved in the same
   * sequence: mostly small gaps, now and then a jump of thousands.
   */
  private nextSerial(): bigint {
    if (this.lastSerial === undefined) return this.serialStart;
    const gap = this.gapRng.chance(0.02) ? this.gapRng.int(500, 5000) : this.gapRng.int(1, 40);
    return this.lastSerial + BigInt(gap);
  }
}
