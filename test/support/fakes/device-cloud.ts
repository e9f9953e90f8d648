import type {
  CallOptions,
  DeviceCloud,
  DeviceEvent,
  EventColumn,
  EventRows,
  FilterWithColumns,
  FilterWithoutColumns,
  FleetDevice,
  GpsHistoryRequest,
  GpsPoint,
  OnlineDevice,
  RejectedEvent,
} from "@fleet-alerts/core/devicecloud";

/** What the fake's event query may do that the spec allows: ignore a filter, answer newest first. */
export interface FakeEventQueryHabits {
  /** Filters the service does not apply: it answers as if they were not sent. */
  ignores?: readonly ("columns" | "beforeSerialno")[];
  order?: "asc" | "desc";
  /** Every row sent twice. */
  repeats?: boolean;
  /** Serial numbers left out of that many answers that are not a serial-only scan. */
  withheld?: Map<bigint, number>;
}

/**
 * The device cloud in memory: an event log read by serial number (at most `pageSize` events an
 * answer, the oldest that match), events that fail validation at a place in the log, and a device
 * list. Playback and record maps are not faked: the evidence tests run against the simulator.
 */
export class FakeDeviceCloud implements DeviceCloud {
  readonly events: DeviceEvent[] = [];
  /** Invalid events; `after`: the serial they follow in the log (their own when readable). */
  readonly rejected: { event: RejectedEvent; after: bigint }[] = [];
  devices: FleetDevice[] = [];
  online: OnlineDevice[] = [];
  pageSize = Number.POSITIVE_INFINITY;
  habits: FakeEventQueryHabits = {};
  /** Rows of each event query answer, in order: what the service sent, not what the caller kept. */
  readonly answerRows: number[] = [];
  /** Set to make the device list fail (alerts go out without vehicle and driver). */
  devicesError: Error | undefined;
  /** Set to make every call fail, as a service that cannot be reached does. */
  unreachable: Error | undefined;
  /** The service's clock: events later than it are not in the log yet. Default: all are. */
  loggedUntil: () => number = () => Number.POSITIVE_INFINITY;
  /** GPS points per device id; /api/gps answers those inside the range asked. */
  readonly gpsPoints = new Map<string, GpsPoint[]>();
  /** Every /api/gps request, in order. */
  readonly gpsRequests: GpsHistoryRequest[] = [];
  /** Set to make /api/gps fail. */
  gpsError: Error | undefined;
  /** Set to make /api/gps answer nothing until the caller gives up (its signal aborts). */
  gpsHangs = false;

  readEvents<R extends EventRows<DeviceEvent>>(filter: FilterWithoutColumns, open: () => R): Promise<R>;
  readEvents<C extends EventColumn, R extends EventRows<Pick<DeviceEvent, C>>>(
    filter: FilterWithColumns<C>,
    open: () => R,
  ): Promise<R>;
  async readEvents(
    filter: FilterWithoutColumns | FilterWithColumns<EventColumn>,
    open: () => EventRows<Partial<DeviceEvent>>,
  ): Promise<EventRows<Partial<DeviceEvent>>> {
    if (this.unreachable) throw this.unreachable;
    const ignores = new Set(this.habits.ignores);
    const after = filter.afterSerialno === undefined ? -1n : BigInt(filter.afterSerialno);
    const before =
      filter.beforeSerialno === undefined || ignores.has("beforeSerialno")
        ? undefined
        : BigInt(filter.beforeSerialno);
    if (filter.afterTime !== undefined && !(filter.afterTime instanceof Date)) throw new Error("not faked");
    const afterMs = filter.afterTime?.getTime() ?? Number.NEGATIVE_INFINITY;
    const untilMs = this.loggedUntil();
    const columns = ignores.has("columns") ? undefined : filter.columns;
    const within = (serial: bigint) => serial > after && (before === undefined || serial <= before);
    // Invalid events with a readable serial are rows of the log like any other; in a serial-only
    // answer they are valid (their serial is all that is checked).
    type Row = { serialno: bigint; event?: DeviceEvent; rejected?: RejectedEvent };
    const logged: Row[] = [
      ...this.events
        .filter((event) => {
          const eventMs = Date.parse(event.eventtime);
          return within(event.serialno) && eventMs > afterMs && eventMs <= untilMs;
        })
        .map((event) => ({ serialno: event.serialno, event })),
      ...this.rejected
        .filter((entry) => entry.event.serialno !== undefined && within(entry.event.serialno))
        .map((entry) => ({ serialno: entry.after, rejected: entry.event })),
    ].sort((a, b) => (a.serialno < b.serialno ? -1 : a.serialno > b.serialno ? 1 : 0));
    const withheld = this.habits.withheld;
    const kept =
      withheld && columns === undefined
        ? logged.filter((row) => {
            const times = withheld.get(row.serialno) ?? 0;
            if (times > 0) withheld.set(row.serialno, times - 1);
            return times === 0;
          })
        : logged;
    const answer = kept.slice(0, this.pageSize);
    // A capped answer ends at its last row: the invalid events without a serial after it come later.
    const end = kept.length > answer.length ? answer.at(-1)?.serialno : undefined;
    const unplaced = this.rejected.filter(
      (entry) =>
        entry.event.serialno === undefined &&
        entry.after > after &&
        (before === undefined || entry.after <= before) &&
        (end === undefined || entry.after <= end),
    );
    if (this.habits.order === "desc") answer.reverse();
    const sent = this.habits.repeats ? answer.flatMap((row) => [row, row]) : answer;
    this.answerRows.push(sent.length + unplaced.length);
    const rows = open();
    for (const row of sent) {
      if (row.event) rows.onEvent(columns ? pick(row.event, columns) : structuredClone(row.event));
      else if (columns?.length === 1 && columns[0] === "serialno") rows.onEvent({ serialno: row.serialno });
      else rows.onRejected(structuredClone(row.rejected as RejectedEvent));
    }
    for (const entry of unplaced) rows.onRejected(structuredClone(entry.event));
    return rows;
  }

  async allDevices(): Promise<FleetDevice[]> {
    if (this.unreachable) throw this.unreachable;
    if (this.devicesError) throw this.devicesError;
    return structuredClone(this.devices);
  }

  async gpsHistory(request: GpsHistoryRequest, options?: CallOptions): Promise<GpsPoint[]> {
    this.gpsRequests.push(request);
    if (this.gpsError) throw this.gpsError;
    if (this.gpsHangs) {
      // As the real client does: the caller's abort is passed through as its reason.
      await new Promise((_resolve, reject) =>
        options?.signal?.addEventListener("abort", () => reject(options.signal?.reason)),
      );
    }
    const { start, end } = request as { start: number; end: number };
    const points = this.gpsPoints.get(request.deviceid) ?? [];
    return structuredClone(points.filter((point) => point.time >= start && point.time <= end));
  }

  async onlineDevices(): Promise<OnlineDevice[]> {
    return structuredClone(this.online);
  }

  dailyRecordMap(): never {
    throw new Error("not faked");
  }

  playbackUrl(): never {
    throw new Error("not faked");
  }

  downloadPlayback(): never {
    throw new Error("not faked");
  }
}

function pick(event: DeviceEvent, columns: readonly EventColumn[]): Partial<DeviceEvent> {
  return Object.fromEntries(columns.map((column) => [column, structuredClone(event[column])]));
}
