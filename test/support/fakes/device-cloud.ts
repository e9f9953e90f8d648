import type {
  CallOptions,
  DeviceCloud,
  DeviceEvent,
  EventColumn,
  EventQueryResult,
  FilterWithColumns,
  FilterWithoutColumns,
  FleetDevice,
  GpsHistoryRequest,
  GpsPoint,
  OnlineDevice,
  RejectedEvent,
} from "@fleet-alerts/core/devicecloud";

/**
 * The device cloud in memory: an event log read by serial number (at most `pageSize` events a
 * page, the oldest first), events that fail validation at a place in the log, and a device list.
 * Playback and record maps are not faked: the evidence tests run against the simulator.
 */
export class FakeDeviceCloud implements DeviceCloud {
  readonly events: DeviceEvent[] = [];
  /** Invalid events; `after`: the serial they follow in the log (their own when readable). */
  readonly rejected: { event: RejectedEvent; after: bigint }[] = [];
  devices: FleetDevice[] = [];
  online: OnlineDevice[] = [];
  pageSize = Number.POSITIVE_INFINITY;
  /** Set to make the device list fail (alerts go out without vehicle and driver). */
  devicesError: Error | undefined;
  /** GPS points per device id; /api/gps answers those inside the range asked. */
  readonly gpsPoints = new Map<string, GpsPoint[]>();
  /** Every /api/gps request, in order. */
  readonly gpsRequests: GpsHistoryRequest[] = [];
  /** Set to make /api/gps fail. */
  gpsError: Error | undefined;
  /** Set to make /api/gps answer nothing until the caller gives up (its signal aborts). */
  gpsHangs = false;

  queryEvents(filter?: FilterWithoutColumns): Promise<EventQueryResult<DeviceEvent>>;
  queryEvents<C extends EventColumn>(
    filter: FilterWithColumns<C>,
  ): Promise<EventQueryResult<Pick<DeviceEvent, C>>>;
  async queryEvents(
    filter: FilterWithoutColumns | FilterWithColumns<EventColumn> = {},
  ): Promise<EventQueryResult<DeviceEvent>> {
    const after = filter.afterSerialno === undefined ? -1n : BigInt(filter.afterSerialno);
    if (filter.afterTime !== undefined && !(filter.afterTime instanceof Date)) throw new Error("not faked");
    const afterMs = filter.afterTime?.getTime() ?? Number.NEGATIVE_INFINITY;
    const matching = this.events
      .filter((event) => event.serialno > after && Date.parse(event.eventtime) > afterMs)
      .sort((a, b) => (a.serialno < b.serialno ? -1 : 1));
    const events = matching.slice(0, this.pageSize);
    // A capped page ends at its last event: the invalid events after it come with a later page.
    const end = matching.length > events.length ? events.at(-1)?.serialno : undefined;
    const rejected = this.rejected
      .filter((entry) => entry.after > after && (end === undefined || entry.after <= end))
      .map((entry) => structuredClone(entry.event));
    return { events: structuredClone(events), rejected };
  }

  async allDevices(): Promise<FleetDevice[]> {
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
