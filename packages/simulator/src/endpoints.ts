/** The ten endpoints of the spec, by the names used in fault rules and the request log. */
export type EndpointName =
  | "gps"
  | "mdvrsetting"
  | "onlinelist"
  | "recordlist"
  | "device"
  | "alllist"
  | "registered"
  | "dlplayback"
  | "record"
  | "eventquery";

/** Paths of the POST endpoints (every endpoint except the playback download). */
export const POST_PATHS: ReadonlyMap<string, Exclude<EndpointName, "dlplayback">> = new Map([
  ["/api/gps", "gps"],
  ["/gkserver/mdvrsetting", "mdvrsetting"],
  ["/gkdevice/onlinelist", "onlinelist"],
  ["/api/recordlist", "recordlist"],
  ["/gkdevice/device", "device"],
  ["/gkdevice/alllist", "alllist"],
  ["/gkdevice/registered", "registered"],
  ["/api/record", "record"],
  ["/gkevent/eventquery", "eventquery"],
]);

export const PLAYBACK_PREFIX = "/dlplayback/";
