import type { FleetDevice } from "@fleet-alerts/core/devicecloud";
import { Command } from "commander";
import { type ConnectionOptions, connect, withConnectionOptions } from "./connection.js";
import { count, formatTable, toJson } from "./format.js";

interface DevicesOptions extends ConnectionOptions {
  json?: boolean;
}

/** `fleet-alerts devices`: the fleet as the device cloud sees it. */
export function devicesCommand(): Command {
  return withConnectionOptions(
    new Command("devices")
      .description(
        "list every device: online or offline, vehicle, driver, channels, last position and update",
      )
      .option("--json", "print a JSON document instead of a table"),
  ).action(listDevices);
}

interface DeviceRow {
  deviceid: string;
  online: boolean;
  vehicleid: string;
  drivername: string;
  channels: number;
  /** The last fix the service has, when the device reports one. */
  position: { lat: number; lng: number; time: string } | null;
  updatetime: string;
}

async function listDevices(options: DevicesOptions): Promise<void> {
  const client = await connect(options);
  // Online is taken from the online list, not from `status`, whose values the spec does not define.
  const [all, online] = await Promise.all([client.allDevices(), client.onlineDevices()]);
  const onlineIds = new Set(online.map((device) => device.deviceid));
  const rows = all.map((device) => rowOf(device, onlineIds.has(device.deviceid)));
  if (options.json) {
    console.log(toJson(rows));
    return;
  }
  const header = ["DEVICE", "STATE", "VEHICLE", "DRIVER", "CH", "LAST POSITION", "LAST UPDATE"];
  const cells = rows.map((row) => [
    row.deviceid,
    row.online ? "online" : "offline",
    row.vehicleid || "-",
    row.drivername || "-",
    String(row.channels),
    row.position ? `${row.position.lat.toFixed(6)},${row.position.lng.toFixed(6)}` : "-",
    row.updatetime,
  ]);
  for (const line of formatTable(header, cells)) console.log(line);
  console.log(`${count(rows.length, "device")}, ${onlineIds.size} online`);
}

function rowOf(device: FleetDevice, online: boolean): DeviceRow {
  const gps = device.gpsdata;
  return {
    deviceid: device.deviceid,
    online,
    vehicleid: device.vehicleid,
    drivername: device.drivername,
    channels: device.channel,
    position: gps ? { lat: gps.lat, lng: gps.lng, time: new Date(gps.time).toISOString() } : null,
    updatetime: device.updatetime,
  };
}
