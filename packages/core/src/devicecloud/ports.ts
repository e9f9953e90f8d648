import type { CallOptions, EventRows, FilterWithColumns, FilterWithoutColumns } from "./client.js";
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
  /**
   * The event log, row by row to the rows `open` makes per attempt (the last attempt's are
   * returned); invalid events go to `onRejected`. With `columns`, only those fields.
   */
  readEvents<R extends EventRows<DeviceEvent>>(
    filter: FilterWithoutColumns,
    open: () => R,
    options?: CallOptions,
  ): Promise<R>;
  readEvents<C extends EventColumn, R extends EventRows<Pick<DeviceEvent, C>>>(
    filter: FilterWithColumns<C>,
    open: () => R,
    options?: CallOptions,
  ): Promise<R>;
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
