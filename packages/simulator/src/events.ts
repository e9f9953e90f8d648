/** The event object, its codes, and its wire form (endpoint 10). */

/** The event codes of the spec's table. */
export const EventCode = {
  Online: 0,
  Reboot: 2,
  Offline: 3,
  Gpio0: 8,
  Gpio1: 9,
  Gpio2: 10,
  Gpio3: 11,
  DiskError: 12,
  OverSpeed: 13,
  Idle: 14,
  VideoLoss: 15,
  GSensor: 16,
  TriggerIn: 51,
  TriggerOut: 52,
  SdBackupNormal: 90,
  SdBackupGsensor: 91,
  SdBackupGpio0: 92,
  LostRecordCover: 98,
  // "A response can carry appdevid values other than these": the simulator emits these three,
  // whose names are its own invention.
  UnlistedDiagnostic: 7,
  UnlistedDriverCard: 77,
  UnlistedGeofence: 120,
} as const;

/** Every column the spec allows, in the order the simulator writes them. */
export const EVENT_COLUMNS = [
  "serialno",
  "deviceid",
  "type",
  "eventtime",
  "eventtimeutc",
  "updatetime",
  "download",
  "try",
  "fenceid",
  "fencename",
  "radius",
  "centerx",
  "centery",
  "vehiclex",
  "vehicley",
  "downloadtype",
  "checkstatus",
  "memo",
  "loopdata",
  "appdevid",
] as const;
export type EventColumn = (typeof EVENT_COLUMNS)[number];

/**
 * A logged event as the simulator knows it. Identical to the wire object except that `serialno`
 * is a bigint here (a string of digits on the wire).
 */
export interface SimEvent {
  serialno: bigint;
  deviceid: string;
  type: number;
  /** ISO 8601 UTC with milliseconds: when it happened on the device. */
  eventtime: string;
  /** The simulator's choice for this column the spec only names: the same instant and format as `eventtime`. */
  eventtimeutc: string;
  /** ISO 8601 UTC with milliseconds: when the service received it. Never decreases with serialno. */
  updatetime: string;
  download: number;
  try: number;
  fenceid: number | null;
  fencename: string | null;
  radius: number | null;
  centerx: number | null;
  centery: number | null;
  /** A number, or a decimal string with the `eventCoordinates: "strings"` option. */
  vehiclex: number | string | null;
  vehicley: number | string | null;
  /** 0 = UDP event, 1 = download event, 2 = not-download event. */
  downloadtype: number;
  checkstatus: number | null;
  memo: string | null;
  loopdata: string | null;
  appdevid: number;
}

export type WireEvent = Partial<Record<EventColumn, string | number | null>>;

/** The wire object of an event, limited to `columns`, keys always in the canonical order. */
export function toWireEvent(event: SimEvent, columns: ReadonlySet<EventColumn> | undefined): WireEvent {
  const wire: WireEvent = {};
  for (const column of EVENT_COLUMNS) {
    if (columns && !columns.has(column)) continue;
    const value = event[column];
    wire[column] = typeof value === "bigint" ? value.toString() : value;
  }
  return wire;
}
