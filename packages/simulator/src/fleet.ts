/**
 * The static, seeded description of the fleet: identities, hardware and configuration of each
 * device. What devices do over time lives in device.ts.
 */
import { TICK_MS } from "./devicetypes.js";
import type { DeviceIdentity } from "./options.js";
import { createRng, type Rng, shuffled } from "./rng.js";
import { MINUTE_MS } from "./time.js";

/** The setting control object (endpoint 2), with every field the spec lists. */
export interface DeviceSettings {
  g_sensor_en: number;
  g_sensor_x: number;
  g_sensor_y: number;
  g_sensor_z: number;
  preosd_plate: string;
  sys_tz: number;
  sys_dst: string;
  sys_spdparam: null;
  sys_accoffsec: number;
  sys_eisp: string;
  sys_edsp: string;
  sys_turn: string;
  sys_gguard: number;
  net_hbsec: number;
  net_server: string;
  net_wfssid: string;
  net_wfpwd: string;
  net_2ndserver: string;
  net_2ndhb: number;
  net_2nden: number;
  cam_rec: string;
  cam_mirror: string;
  enc_sres: string;
  enc_sfps: number;
  enc_sbit: number;
}

export interface DeviceProfile {
  index: number;
  deviceid: string;
  vehicleid: string;
  /** Empty for vehicles without an assigned driver. */
  drivername: string;
  /** Number of camera channels, 1..8; reported as `channel` in status objects. */
  channels: number;
  home: { lat: number; lng: number };
  /** How far from home trips wander before heading back. */
  roamRadiusKm: number;
  /** OverSpeed threshold. */
  speedLimitKmh: number;
  /** Unit of `gpsdata.time` this device reports: the spec leaves it open, so both occur. */
  gpsTimeUnit: "milliseconds" | "seconds";
  /** Without an antenna a device never has a fix: empty `nmea`, no `gpsdata`, no GPS history. */
  hasGpsAntenna: boolean;
  /**
   * How often the service refreshes the fix in this device's status (`gpsdata`, `nmea`): every
   * 1 to 5 minutes, or every 5-second tick for a few devices. The GPS history gets every tick.
   */
  statusIntervalMs: number;
  /** A worn SD card: DiskError is far more frequent. */
  flakyDisk: boolean;
  /** Offset of this device's 5-second report grid, so devices do not all report on the same second. */
  tickPhaseMs: number;
  settings: DeviceSettings;
}

const CITIES = [
  { lat: 52.52, lng: 13.405 },
  { lat: 53.551, lng: 9.993 },
  { lat: 48.137, lng: 11.575 },
  { lat: 48.208, lng: 16.373 },
  { lat: 47.377, lng: 8.541 },
] as const;
const FIRST_NAMES = [
  "Anna",
  "Ben",
  "Clara",
  "Deniz",
  "Elif",
  "Felix",
  "Greta",
  "Hakan",
  "Ines",
  "Jonas",
  "Karla",
];
const LAST_NAMES = [
  "Becker",
  "Yilmaz",
  "Nowak",
  "Schmidt",
  "Rossi",
  "Weber",
  "Kovac",
  "Meyer",
  "Lind",
  "Ortega",
];
const PLATE_LETTERS = "ABCDEFGHKLMNPRSTUVWXYZ";
/** Weighted toward the common 4-channel recorders while still covering 1..8. */
const CHANNEL_COUNTS = [1, 2, 2, 3, 4, 4, 4, 4, 5, 6, 8, 8];

export function createFleet(
  seed: number,
  count: number,
  timeZoneOffsetMinutes: number,
  identities: readonly DeviceIdentity[] = [],
): DeviceProfile[] {
  // Drawn as seeded first, so that the rest of each device (and every other device) is unchanged.
  const fleet = seededFleet(seed, count, timeZoneOffsetMinutes).map((profile) => {
    const identity = identities[profile.index];
    return identity ? { ...profile, ...identity } : profile;
  });
  if (new Set(fleet.map((profile) => profile.deviceid)).size !== fleet.length)
    throw new Error("identities: a device id is already a seeded device's");
  return fleet;
}

function seededFleet(seed: number, count: number, timeZoneOffsetMinutes: number): DeviceProfile[] {
  const fleetRng = createRng(seed, "fleet");
  const city = fleetRng.pick(CITIES);
  const indexes = shuffled(fleetRng, [...Array(count).keys()]);
  // Fixed shares rather than independent coin flips, so even a small fleet shows each quirk.
  const noAntenna = new Set(count >= 3 ? indexes.slice(0, Math.max(1, Math.round(count * 0.1))) : []);
  // Next in the same order, so that these have an antenna: a fix in a status refreshed every tick.
  const everyTickStatus = new Set(
    count >= 3 ? indexes.slice(noAntenna.size, noAntenna.size + Math.max(1, Math.round(count * 0.1))) : [],
  );
  const secondsClock = new Set(count >= 2 ? indexes.slice(-Math.max(1, Math.round(count * 0.2))) : []);
  const usedIds = new Set<string>();
  return Array.from({ length: count }, (_, index) => {
    const rng = createRng(seed, "device-profile", index);
    let deviceid: string;
    do {
      // Leading zeros on purpose: a client that treats ids as numbers breaks visibly.
      deviceid = `00${rng.int(10_000_000, 99_999_999)}`;
    } while (usedIds.has(deviceid));
    usedIds.add(deviceid);
    const vehicleid = plate(rng);
    const channels = rng.pick(CHANNEL_COUNTS);
    return {
      index,
      deviceid,
      vehicleid,
      drivername: rng.chance(0.1) ? "" : `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
      channels,
      home: { lat: city.lat + rng.between(-0.08, 0.08), lng: city.lng + rng.between(-0.12, 0.12) },
      roamRadiusKm: rng.between(8, 25),
      speedLimitKmh: rng.pick([80, 90, 100, 100, 110]),
      gpsTimeUnit: secondsClock.has(index) ? "seconds" : "milliseconds",
      hasGpsAntenna: !noAntenna.has(index),
      // A stream of its own: drawing from the profile's would shift every draw after it.
      statusIntervalMs: everyTickStatus.has(index)
        ? TICK_MS
        : createRng(seed, "status-interval", index).int(1, 5) * MINUTE_MS,
      flakyDisk: rng.chance(0.1),
      tickPhaseMs: rng.int(0, 4) * 1000,
      settings: createSettings(rng, vehicleid, channels, timeZoneOffsetMinutes),
    };
  });
}

function plate(rng: Rng): string {
  const letters = (length: number) =>
    Array.from({ length }, () => PLATE_LETTERS[rng.int(0, PLATE_LETTERS.length - 1)]).join("");
  return `${letters(rng.int(1, 2))}-${letters(2)} ${rng.int(1, 9999)}`;
}

function createSettings(
  rng: Rng,
  vehicleid: string,
  channels: number,
  timeZoneOffsetMinutes: number,
): DeviceSettings {
  const digits = (count: number, max: number) =>
    Array.from({ length: count }, () => rng.int(0, max)).join(",");
  const wifiAlphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return {
    g_sensor_en: 1,
    g_sensor_x: rng.int(2, 8),
    g_sensor_y: rng.int(2, 8),
    g_sensor_z: rng.int(4, 12),
    preosd_plate: vehicleid,
    sys_tz: timeZoneOffsetMinutes / 60,
    sys_dst: `${rng.int(0, 1)},3,5,0,2,10,5,0`,
    sys_spdparam: null,
    sys_accoffsec: rng.pick([30, 60, 180, 300, 600]),
    sys_eisp: digits(4, 1),
    sys_edsp: digits(4, 1),
    sys_turn: digits(2, 1),
    sys_gguard: rng.int(0, 1),
    net_hbsec: rng.pick([30, 60]),
    net_server: "gk.devicecloud.example:6608",
    net_wfssid: `FLEET-${vehicleid.replace(/\W/g, "")}`,
    net_wfpwd: Array.from({ length: 12 }, () => wifiAlphabet[rng.int(0, wifiAlphabet.length - 1)]).join(""),
    net_2ndserver: "0.0.0.0:0",
    net_2ndhb: 0,
    net_2nden: 0,
    cam_rec: Array.from({ length: channels }, () => (rng.chance(0.9) ? "1" : "0")).join(""),
    cam_mirror: rng.chance(0.2) ? String(rng.int(1, channels)) : "",
    enc_sres: rng.pick(["D1", "720P", "1080P"]),
    enc_sfps: rng.pick([15, 25, 30]),
    enc_sbit: rng.pick([512, 1024, 2048, 4096]),
  };
}
