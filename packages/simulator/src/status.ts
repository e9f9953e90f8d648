/**
 * Device status objects (endpoints 3, 5, 6). Choices where the spec is silent:
 * - `status`: 1 = online, 0 = offline.
 * - `channel`: the device's number of camera channels.
 * - `nmea`/`gpsdata`: the fix of the device's last status refresh, which comes once per status
 *   interval (DeviceProfile.statusIntervalMs: 1 to 5 minutes, every 5-second tick for a few
 *   devices) while the GPS history gets every tick. So a status fix can be minutes old, and a
 *   client must not take it for where the vehicle was at an event. A device that reported "no
 *   fix" at its refresh (or has no GPS antenna) has `nmea: ""` and no `gpsdata`. An offline device
 *   keeps its last one; after a gap longer than its interval, the first report refreshes it.
 * - `gpsdata.time`: UNIX milliseconds for most devices, UNIX seconds for a seeded minority.
 * - `updatetime`: the last time the service heard from the device.
 */
import type { DeviceActivity } from "./device.js";
import { rmcSentence } from "./nmea.js";
import { roundTo } from "./numbers.js";
import { isoMillis } from "./time.js";

export interface GpsData {
  time: number;
  lat: number;
  lng: number;
  speedInKmh: number;
  trackingAngle: number;
}

interface StatusFields {
  status: number;
  nmea: string;
  updatetime: string;
  gpsdata?: GpsData;
}

export function onlineListEntry(device: DeviceActivity) {
  const { gpsdata, ...fields } = statusFields(device);
  return { deviceid: device.profile.deviceid, ...fields, ...(gpsdata && { gpsdata }) };
}

export function allListEntry(device: DeviceActivity) {
  return { deviceid: device.profile.deviceid, ...singleDeviceStatus(device) };
}

export function singleDeviceStatus(device: DeviceActivity) {
  const { gpsdata, ...fields } = statusFields(device);
  const { vehicleid, drivername, channels } = device.profile;
  return { ...fields, vehicleid, drivername, channel: channels, ...(gpsdata && { gpsdata }) };
}

function statusFields(device: DeviceActivity): StatusFields {
  const { online, lastReportMs, reportedFix } = device.status();
  const fields: StatusFields = {
    status: online ? 1 : 0,
    nmea: reportedFix ? rmcSentence(reportedFix) : "",
    updatetime: isoMillis(lastReportMs),
  };
  if (reportedFix) {
    const inSeconds = device.profile.gpsTimeUnit === "seconds";
    fields.gpsdata = {
      time: inSeconds ? Math.floor(reportedFix.epochMs / 1000) : reportedFix.epochMs,
      lat: roundTo(reportedFix.lat, 6),
      lng: roundTo(reportedFix.lng, 6),
      speedInKmh: roundTo(reportedFix.speedKmh, 1),
      trackingAngle: roundTo(reportedFix.heading, 1),
    };
  }
  return fields;
}
