import { DeviceCloudClient } from "@fleet-alerts/core/devicecloud";
import { DEFAULT_RECORDER_AUDIT, type RecorderAuditRunSettings } from "@fleet-alerts/core/recorder";
import { type Simulator, start } from "@fleet-alerts/simulator";

/** The audited day: the simulator starts the hour before it and runs past its end. */
export const DAY_START = Date.parse("2026-01-04T00:00:00Z");
export const DAY_END = DAY_START + 86_400_000;
const MINUTE_MS = 60_000;
const DISK_ERROR = 12;

export const AUDIT_SETTINGS: RecorderAuditRunSettings = {
  account: "north",
  fleetTimeZone: "Europe/Berlin",
  audit: { ...DEFAULT_RECORDER_AUDIT, gapMinutes: 10 },
  utcOffsetMinutes: 0,
  speedUnit: "km/h",
};

/**
 * A fleet of six on the simulator from the hour before DAY_START; `parked` (the last device) is held
 * offline from then on, as a van left in the yard, and the clock is then run 36 minutes past the
 * day, when the day is due for its audit.
 */
export async function auditedDay(seed = 5) {
  const simulator: Simulator = await start({
    seed,
    devices: 6,
    historyHours: 1,
    // The tests fail cameras themselves: a random failure would be a gap of its own.
    randomCameraFailures: false,
    clock: { start: new Date(DAY_START - 3_600_000) },
  });
  const devices = simulator.control.devices().map((device) => device.deviceid);
  const parked = devices.at(-1) as string;
  simulator.control.setOnline(parked, false, { hold: true });
  simulator.control.advance(DAY_END + 36 * MINUTE_MS - simulator.control.now().getTime());
  const client = new DeviceCloudClient({
    baseUrl: simulator.url,
    credentials: { username: "demo", password: "demo" },
  });
  return { simulator, client, devices, parked, now: () => simulator.control.now().getTime() };
}

/**
 * The first stretch of `minutes` whole minutes, after 06:00 of the day, in which a device's GPS
 * history shows it moving every minute (well above the audit's threshold), with its minutes
 * recorded: a vehicle driving with its camera working, until a test fails the camera. Devices
 * with a DiskError that day are passed over.
 */
export function drivingStretch(simulator: Simulator, devices: readonly string[], minutes: number) {
  // A disk error makes the simulator record GPS only until a reboot: a gap of its own, not the test's.
  const diskErrors = new Set(
    simulator.control
      .events()
      .filter((event) => event.appdevid === DISK_ERROR && Date.parse(event.eventtime) < DAY_END)
      .map((event) => event.deviceid),
  );
  for (const deviceid of devices.filter((candidate) => !diskErrors.has(candidate))) {
    const points = simulator.control.gpsTrack(deviceid, new Date(DAY_START), new Date(DAY_END));
    const driven = new Set(
      points.filter((point) => point.speed > 15).map((point) => Math.floor(point.time / 60)),
    );
    const map = simulator.control.dailyRecordMap(deviceid, new Date(DAY_START));
    const firstMinute = DAY_START / MINUTE_MS;
    for (let start = firstMinute + 360; start < firstMinute + 1380 - minutes; start++) {
      const run = Array.from({ length: minutes }, (_, index) => start + index);
      if (run.every((minute) => driven.has(minute) && map[minute - firstMinute] === 1))
        return { deviceid, fromMs: start * MINUTE_MS, toMs: (start + minutes) * MINUTE_MS };
    }
  }
  throw new Error(`no device drove ${minutes} minutes on end`);
}
