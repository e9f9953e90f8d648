import type { RecordEntry, Simulator } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, DEMO, type ErrorBody, post, sha256Upper, startSmall } from "./helpers.js";

const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const SETTING_FIELDS = [
  "g_sensor_en",
  "g_sensor_x",
  "g_sensor_y",
  "g_sensor_z",
  "preosd_plate",
  "sys_tz",
  "sys_dst",
  "sys_spdparam",
  "sys_accoffsec",
  "sys_eisp",
  "sys_edsp",
  "sys_turn",
  "sys_gguard",
  "net_hbsec",
  "net_server",
  "net_wfssid",
  "net_wfpwd",
  "net_2ndserver",
  "net_2ndhb",
  "net_2nden",
  "cam_rec",
  "cam_mirror",
  "enc_sres",
  "enc_sfps",
  "enc_sbit",
];

type Json = Record<string, unknown>;

describe("POST endpoints", () => {
  let simulator: Simulator;
  let deviceid: string;
  let gpsDeviceid: string;

  beforeAll(async () => {
    simulator = await startSmall({ devices: 8 });
    const devices = simulator.control.devices();
    deviceid = devices[0]?.deviceid ?? "";
    gpsDeviceid =
      devices.find((device) => simulator.control.gpsTrack(device.deviceid).length > 0)?.deviceid ?? "";
  });
  afterAll(() => simulator.close());

  it("GPS history: decimal strings, seconds, ascending, both range ends inclusive", async () => {
    const nowSec = simulator.control.now().getTime() / 1000;
    const { status, json } = await post<Json[]>(simulator, "/api/gps", {
      ...DEMO,
      deviceid: gpsDeviceid,
      start: nowSec - 6 * 3600,
      end: nowSec,
    });
    expect(status).toBe(200);
    expect(json.length).toBeGreaterThan(10);
    for (const point of json) {
      expect(Object.keys(point)).toEqual(["lat", "lng", "speed", "dir", "time"]);
      for (const field of ["lat", "lng", "speed", "dir"]) expect(point[field]).toMatch(DECIMAL);
      expect(Number.isInteger(point.time)).toBe(true);
    }
    const times = json.map((point) => point.time as number);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const truth = simulator.control.gpsTrack(gpsDeviceid);
    const middle = truth[Math.floor(truth.length / 2)] as (typeof truth)[number];
    const exact = await post<Json[]>(simulator, "/api/gps", {
      ...DEMO,
      deviceid: gpsDeviceid,
      start: middle.time,
      end: middle.time,
    });
    expect(exact.json).toEqual([
      {
        lat: middle.lat.toFixed(6),
        lng: middle.lng.toFixed(6),
        speed: middle.speed.toFixed(1),
        dir: middle.dir.toFixed(1),
        time: middle.time,
      },
    ]);
    const inverted = await post(simulator, "/api/gps", { ...DEMO, deviceid: gpsDeviceid, start: 10, end: 9 });
    expect(inverted.status).toBe(400);
  });

  it("setting control: every listed field, sys_spdparam null, a Wi-Fi password", async () => {
    const { status, json } = await post<Json>(simulator, "/gkserver/mdvrsetting", { ...DEMO, deviceid });
    expect(status).toBe(200);
    expect(Object.keys(json)).toEqual(SETTING_FIELDS);
    expect(json.sys_spdparam).toBeNull();
    expect(json.net_wfpwd).toMatch(/^\S{8,}$/);
    expect(json.net_server).toMatch(/^[\w.-]+:\d+$/);
    expect(String(json.cam_rec)).toHaveLength(simulator.control.devices()[0]?.channels ?? 0);
  });

  it("status lists: the fields of each operation, nothing more", async () => {
    const online = await post<Json[]>(simulator, "/gkdevice/onlinelist", DEMO);
    const all = await post<Json[]>(simulator, "/gkdevice/alllist", DEMO);
    const single = await post<Json>(simulator, "/gkdevice/device", { ...ADMIN, deviceid });
    expect([online.status, all.status, single.status]).toEqual([200, 200, 200]);
    expect(all.json).toHaveLength(8);
    const withOptionalGps = (keys: string[], entry: Json) =>
      expect(Object.keys(entry)).toEqual(entry.gpsdata === undefined ? keys : [...keys, "gpsdata"]);
    for (const entry of online.json) {
      withOptionalGps(["deviceid", "status", "nmea", "updatetime"], entry);
      expect(entry.status).toBe(1);
    }
    const allKeys = ["deviceid", "status", "nmea", "updatetime", "vehicleid", "drivername", "channel"];
    for (const entry of all.json) {
      withOptionalGps(allKeys, entry);
      expect(entry.updatetime).toMatch(ISO_MILLIS);
      if (entry.gpsdata !== undefined) {
        expect(Object.keys(entry.gpsdata as Json)).toEqual([
          "time",
          "lat",
          "lng",
          "speedInKmh",
          "trackingAngle",
        ]);
        expect(entry.nmea).toMatch(/^\$GPRMC,.*\*[0-9A-F]{2}$/);
      }
    }
    withOptionalGps(allKeys.slice(1), single.json);
    expect(single.json).toEqual(
      Object.fromEntries(Object.entries(all.json[0] as Json).filter(([key]) => key !== "deviceid")),
    );
  });

  it("registered devices: the ids as strings (admin)", async () => {
    const { status, json } = await post<string[]>(simulator, "/gkdevice/registered", ADMIN);
    expect(status).toBe(200);
    expect(json).toEqual(simulator.control.devices().map((device) => device.deviceid));
  });

  it("record list and daily map describe the same recordings", async () => {
    const list = await post<RecordEntry[]>(simulator, "/api/recordlist", { ...DEMO, deviceid });
    expect(list.status).toBe(200);
    expect(list.json.length).toBeGreaterThan(0);
    for (const entry of list.json) {
      expect(Object.keys(entry)).toEqual(["start", "end", "type"]);
      expect([0, 1, 2]).toContain(entry.type);
      expect(entry.end).toBeGreaterThan(entry.start);
    }
    expect(list.json).toEqual(simulator.control.recordings(deviceid));
    // A day that is not a midnight: the map starts exactly at `date`.
    const date = simulator.control.now().getTime() / 1000 - 86_400 + 7 * 60;
    const map = await post<number[]>(simulator, "/api/record", { ...DEMO, deviceid, date });
    expect(map.status).toBe(200);
    expect(map.json).toHaveLength(1440);
    map.json.forEach((value, minute) => {
      const minuteStart = date + minute * 60;
      const covering = list.json.find((entry) => entry.start <= minuteStart && minuteStart < entry.end);
      const expected = covering === undefined ? [0, 3] : [covering.type === 0 ? 1 : 2];
      expect(expected, `minute ${minute}`).toContain(value);
    });
    expect(map.json.some((value) => value === 1)).toBe(true);
    const offMinute = await post<number[]>(simulator, "/api/record", { ...DEMO, deviceid, date: date + 30 });
    expect(offMinute.json).toHaveLength(1440);
  });

  it("answers 404 for an unknown device on every device endpoint", async () => {
    for (const path of ["/api/gps", "/gkserver/mdvrsetting", "/api/recordlist", "/api/record"]) {
      const { status, json } = await post(simulator, path, {
        ...ADMIN,
        deviceid: "no-such-device",
        ...(path === "/api/gps" && { start: 0, end: 1 }),
        ...(path === "/api/record" && { date: 0 }),
      });
      expect([path, status, json.error]).toEqual([path, 404, "unknown_device"]);
    }
    const single = await post(simulator, "/gkdevice/device", { ...ADMIN, deviceid: "no-such-device" });
    expect(single.status).toBe(404);
  });
});

describe("authentication and errors", () => {
  let simulator: Simulator;

  beforeAll(async () => {
    simulator = await startSmall({
      devices: 2,
      historyHours: 1,
      accounts: [
        { username: "fleet", password: "s3cret!", admin: false },
        { username: "boss", password: "b0ss", admin: true },
      ],
    });
  });
  afterAll(() => simulator.close());

  const fleet = { username: "fleet", password: sha256Upper("s3cret!") };

  it("accepts only the uppercase SHA-256 of the password", async () => {
    expect((await post(simulator, "/gkdevice/onlinelist", fleet)).status).toBe(200);
    for (const password of ["s3cret!", sha256Upper("s3cret!").toLowerCase(), sha256Upper("other")]) {
      const { status, json, headers, text } = await post(simulator, "/gkdevice/onlinelist", {
        ...fleet,
        password,
      });
      expect(status).toBe(401);
      expect(headers.get("content-type")).toMatch(/^application\/json/);
      expect(json).toEqual({ error: "invalid_credentials", message: expect.any(String) });
      expect(text.toLowerCase()).not.toContain(password.toLowerCase());
    }
    const unknownUser = await post(simulator, "/gkdevice/onlinelist", { ...fleet, username: "nobody" });
    expect(unknownUser.status).toBe(401);
    expect(simulator.accounts).toEqual([
      { username: "fleet", password: "s3cret!", admin: false },
      { username: "boss", password: "b0ss", admin: true },
    ]);
  });

  it("restricts the single device status and the registered list to administrators (403)", async () => {
    const deviceid = simulator.control.devices()[0]?.deviceid;
    const boss = { username: "boss", password: sha256Upper("b0ss") };
    for (const [path, extra] of [
      ["/gkdevice/device", { deviceid }],
      ["/gkdevice/registered", {}],
    ] as const) {
      const denied = await post(simulator, path, { ...fleet, ...extra });
      expect([path, denied.status, denied.json.error]).toEqual([path, 403, "admin_only"]);
      expect((await post(simulator, path, { ...boss, ...extra })).status).toBe(200);
    }
  });

  it.each([
    [
      "a wrong content type",
      () => post(simulator, "/gkdevice/onlinelist", fleet, "text/plain"),
      "invalid_content_type",
    ],
    [
      "invalid JSON",
      () => post(simulator, "/gkdevice/onlinelist", '{"username":', undefined),
      "invalid_json",
    ],
    ["a JSON array body", () => post(simulator, "/gkdevice/onlinelist", "[]"), "invalid_json"],
    [
      "an unknown field",
      () => post(simulator, "/gkdevice/onlinelist", { ...fleet, deviceId: "x" }),
      "unknown_parameter",
    ],
    [
      "a missing password",
      () => post(simulator, "/gkdevice/onlinelist", { username: "fleet" }),
      "missing_parameter",
    ],
    ["a missing deviceid", () => post(simulator, "/api/recordlist", fleet), "missing_parameter"],
    [
      "a numeric deviceid",
      () => post(simulator, "/api/recordlist", { ...fleet, deviceid: 12 }),
      "invalid_parameter",
    ],
    [
      "a null field",
      () => post(simulator, "/api/recordlist", { ...fleet, deviceid: null }),
      "invalid_parameter",
    ],
    [
      "a fractional date",
      () => post(simulator, "/api/record", { ...fleet, deviceid: "x", date: 1.5 }),
      "invalid_parameter",
    ],
    [
      "a string start",
      () => post(simulator, "/api/gps", { ...fleet, deviceid: "x", start: "0", end: 1 }),
      "invalid_parameter",
    ],
  ])("answers 400 for %s", async (_name, send, code) => {
    const { status, json } = await send();
    expect(status).toBe(400);
    expect(json.error).toBe(code);
    expect(json.message).toEqual(expect.any(String));
  });

  it("accepts application/json without a charset and with other casing", async () => {
    expect((await post(simulator, "/gkdevice/onlinelist", fleet, "application/json")).status).toBe(200);
    expect(
      (await post(simulator, "/gkdevice/onlinelist", fleet, "Application/JSON; charset=UTF-8")).status,
    ).toBe(200);
  });

  it("answers 404 for unknown paths and 405 for a wrong method", async () => {
    const unknown = await post(simulator, "/api/nothing", fleet);
    expect([unknown.status, unknown.json.error]).toEqual([404, "not_found"]);
    const get = await fetch(`${simulator.url}/api/gps`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(((await get.json()) as ErrorBody).error).toBe("method_not_allowed");
    const postPlayback = await fetch(`${simulator.url}/dlplayback/a/1/b/c/d`, { method: "POST" });
    expect(postPlayback.status).toBe(405);
    expect(postPlayback.headers.get("allow")).toBe("GET");
  });

  it("refuses bodies over 1 MiB with 413", async () => {
    const { status, json } = await post(simulator, "/gkdevice/onlinelist", {
      ...fleet,
      padding: "x".repeat(1_100_000),
    });
    expect([status, json.error]).toEqual([413, "payload_too_large"]);
  });
});
