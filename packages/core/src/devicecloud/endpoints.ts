/** The service's ten operations, by the names this client uses for them in errors and logs. */
export const ENDPOINTS = {
  gpsHistory: { method: "POST", path: "/api/gps" },
  deviceSettings: { method: "POST", path: "/gkserver/mdvrsetting" },
  onlineDevices: { method: "POST", path: "/gkdevice/onlinelist" },
  recordList: { method: "POST", path: "/api/recordlist" },
  deviceStatus: { method: "POST", path: "/gkdevice/device" },
  allDevices: { method: "POST", path: "/gkdevice/alllist" },
  registeredDevices: { method: "POST", path: "/gkdevice/registered" },
  playback: { method: "GET", path: "/dlplayback" },
  dailyRecordMap: { method: "POST", path: "/api/record" },
  eventQuery: { method: "POST", path: "/gkevent/eventquery" },
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

/** `eventQuery (POST /gkevent/eventquery)`: how errors and logs name an operation. */
export function describeEndpoint(endpoint: EndpointName): string {
  const { method, path } = ENDPOINTS[endpoint];
  return `${endpoint} (${method} ${path})`;
}
