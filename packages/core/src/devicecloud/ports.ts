import type { CallOptions, EventQueryResult, FilterWithColumns, FilterWithoutColumns } from "./client.js";
import type { PlaybackDownload } from "./playback.js";
import type { PlaybackRequestInput, PlaybackUrl } from "./playback-request.js";
import type { FleetDevice, GpsHistoryRequest, GpsPoint, OnlineDevice } from "./schemas/devices.js";
import type { DeviceEvent, EventColumn } from "./schemas/events.js";
import type { DailyRecordMap, DailyRecordMapRequest } from "./schemas/records.js";

/**
 * The device cloud as the poller, the Offline confirmation and the evidence function use it: the
 * operations they call of `DeviceCloudClient`, which implements it.
 */
export interface DeviceCloud {
  /** The event log; invalid events come back in `rejected`. With `columns`, only those fields. */
  queryEvents(filter?: FilterWithoutColumns, options?: CallOptions): Promise<EventQueryResult<DeviceEvent>>;
  queryEvents<C extends EventColumn>(
    filter: FilterWithColumns<C>,
    options?: CallOptions,
  ): Promise<EventQueryResult<Pick<DeviceEvent, C>>>;
  /** A device's GPS points between two UNIX times (about 5 s apart). */
  gpsHistory(request: GpsHistoryRequest, options?: CallOptions): Promise<GpsPoint[]>;
  /** Every device, with vehicle, driver and channel count. */
  allDevices(options?: CallOptions): Promise<FleetDevice[]>;
  /** The devices online now. */
  onlineDevices(options?: CallOptions): Promise<OnlineDevice[]>;
  dailyRecordMap(request: DailyRecordMapRequest, options?: CallOptions): Promise<DailyRecordMap>;
  playbackUrl(request: PlaybackRequestInput): PlaybackUrl;
  downloadPlayback(request: PlaybackRequestInput, options?: CallOptions): Promise<PlaybackDownload>;
}
