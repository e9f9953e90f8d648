import { inspect } from "node:util";
import {
  allDevicesSchema,
  dailyRecordMapSchema,
  deviceEventSchema,
  deviceSettingsSchema,
  deviceStatusSchema,
  eventCodeFromName,
  eventCodeName,
  eventColumnsSchema,
  eventQueryFilterSchema,
  gpsHistorySchema,
  recordListSchema,
} from "@fleet-alerts/core/devicecloud";
import { describe, expect, it } from "vitest";

const event = {
  serialno: "1000",
  deviceid: "MDVR-1",
  type: 0,
  eventtime: "2026-01-05T10:00:00.000Z",
  eventtimeutc: "2026-01-05T10:00:00.000Z",
  updatetime: "2026-01-05T10:00:01.000Z",
  download: 0,
  try: 0,
  fenceid: null,
  fencename: null,
  radius: null,
  centerx: null,
  centery: null,
  vehiclex: null,
  vehicley: null,
  downloadtype: 0,
  checkstatus: null,
  memo: null,
  loopdata: null,
  appdevid: 13,
};

const fleetDevice = {
  deviceid: "MDVR-1",
  status: 1,
  nmea: "$GPRMC,...",
  updatetime: "2026-01-05T10:00:00.000Z",
  vehicleid: "TRK-01",
  drivername: "Ada",
  channel: 4,
  gpsdata: { time: 1767607200000, lat: 52.5, lng: 13.4, speedInKmh: 80, trackingAngle: 90 },
};

describe("event schema", () => {
  it("reads serialno as a bigint, exact beyond 2^53", () => {
    const parsed = deviceEventSchema.parse({ ...event, serialno: "9007199254740993" });
    expect(parsed.serialno).toBe(9007199254740993n);
    expect(parsed.serialno > 9007199254740992n).toBe(true);
  });

  it("compares serial numbers as integers, not strings", () => {
    const nine = deviceEventSchema.parse({ ...event, serialno: "9" }).serialno;
    const ten = deviceEventSchema.parse({ ...event, serialno: "10" }).serialno;
    expect(ten > nine).toBe(true);
  });

  it("refuses a serialno that is not an integer", () => {
    for (const serialno of ["1.5", "-1", "1e3", "", "abc"]) {
      expect(deviceEventSchema.safeParse({ ...event, serialno }).success, serialno).toBe(false);
    }
  });

  it("keeps an appdevid outside the spec's table and extra fields", () => {
    const parsed = deviceEventSchema.parse({ ...event, appdevid: 77, vendorExtra: "x" });
    expect(parsed.appdevid).toBe(77);
    expect(parsed.vendorExtra).toBe("x");
    expect(eventCodeName(77)).toBe("Unknown event 77");
    expect(eventCodeName(13)).toBe("OverSpeed");
  });

  it("accepts nullable fields as null or absent, and non-null values of unshown types", () => {
    const { fenceid: _f, memo: _m, loopdata: _l, ...sparse } = event;
    expect(deviceEventSchema.safeParse(sparse).success).toBe(true);
    expect(deviceEventSchema.safeParse({ ...event, fenceid: 7, memo: "text", loopdata: "abc" }).success).toBe(
      true,
    );
  });

  it("requires the fields an event cannot be used without", () => {
    for (const field of ["serialno", "deviceid", "eventtime", "appdevid"] as const) {
      const { [field]: _dropped, ...rest } = event;
      expect(deviceEventSchema.safeParse(rest).success, field).toBe(false);
    }
  });

  it("checks exactly the selected columns", () => {
    const schema = eventColumnsSchema(["serialno", "appdevid"]);
    expect(schema.parse({ serialno: "5", appdevid: 3 })).toEqual({ serialno: 5n, appdevid: 3 });
    expect(schema.safeParse({ serialno: "5" }).success).toBe(false);
  });

  it("maps the spec's names to codes", () => {
    expect(eventCodeFromName("gsensor")).toBe(16);
    expect(eventCodeFromName("Trigger in")).toBe(51);
    expect(eventCodeFromName("nope")).toBeUndefined();
  });
});

describe("event query filter schema", () => {
  it("accepts every filter of the spec", () => {
    const parsed = eventQueryFilterSchema.parse({
      serialno: 12n,
      afterSerialno: "18446744073709551617",
      beforeSerialno: 99,
      appdevid: 13,
      type: 1,
      date: "2026-01-05",
      afterDate: "2026-01-01",
      beforeDate: "2026-01-31",
      afterTime: "2026-01-05T10:00:00",
      beforeTime: "2026-01-05T11:00:00Z",
      afterUpdatetime: new Date("2026-01-05T10:00:00.900Z"),
      beforeUpdatetime: "2026-01-06T00:00:00Z",
      deviceid: "MDVR-1",
      hasLoopdata: true,
      downloadtype: 2,
      columns: ["serialno", "deviceid"],
    });
    expect(parsed.serialno).toBe("12");
    expect(parsed.afterSerialno).toBe(18446744073709551617n);
    expect(parsed.beforeSerialno).toBe(99n);
    expect(parsed.afterUpdatetime).toBe("2026-01-05T10:00:00Z");
  });

  it("refuses malformed or unknown filters", () => {
    const bad: Record<string, unknown>[] = [
      { date: "2026-02-30" },
      { afterDate: "05/01/2026" },
      { afterTime: "2026-01-05T10:00:00+02:00" },
      { beforeTime: "2026-01-05 10:00:00" },
      { downloadtype: 3 },
      { columns: [] },
      { columns: ["serialno", "serialno"] },
      { columns: ["password"] },
      { afterSerialno: 2 ** 60 },
      { afterSerialno: -1 },
      { afterSerialNo: 5 },
    ];
    for (const filter of bad)
      expect(eventQueryFilterSchema.safeParse(filter).success, JSON.stringify(filter)).toBe(false);
  });
});

describe("device schemas", () => {
  it("normalizes gpsdata.time to milliseconds whether it came in seconds or milliseconds", () => {
    const inMillis = allDevicesSchema.parse([fleetDevice])[0];
    const inSeconds = allDevicesSchema.parse([
      { ...fleetDevice, gpsdata: { ...fleetDevice.gpsdata, time: 1767607200 } },
    ])[0];
    expect(inMillis?.gpsdata?.time).toBe(1767607200000);
    expect(inSeconds?.gpsdata?.time).toBe(1767607200000);
  });

  it("accepts a device without gpsdata (empty nmea)", () => {
    const { gpsdata: _gps, ...noFix } = fleetDevice;
    expect(allDevicesSchema.parse([{ ...noFix, nmea: "" }])[0]?.gpsdata).toBeUndefined();
  });

  it("accepts the single device status as an object or a one-element array", () => {
    const { deviceid: _id, ...status } = fleetDevice;
    expect(deviceStatusSchema.parse(status).vehicleid).toBe("TRK-01");
    expect(deviceStatusSchema.parse([status]).vehicleid).toBe("TRK-01");
  });

  it("reads GPS points written as decimal strings", () => {
    const [point] = gpsHistorySchema.parse([
      { lat: "52.52", lng: "-13.40", speed: "61.5", dir: "270", time: 1767607200 },
    ]);
    expect(point).toEqual({ lat: 52.52, lng: -13.4, speed: 61.5, dir: 270, time: 1767607200 });
    expect(gpsHistorySchema.parse([{ lat: 52.52, lng: " 13 ", speed: 0, dir: "0", time: 1 }])).toEqual([
      { lat: 52.52, lng: 13, speed: 0, dir: 0, time: 1 },
    ]);
    const issues = (point: Record<string, unknown>) =>
      gpsHistorySchema
        .safeParse([{ lat: "0", lng: "0", speed: "0", dir: "0", time: 1, ...point }])
        .error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(issues({ lat: "north" })).toEqual(["0.lat: must be a decimal number"]);
    expect(issues({ speed: "1e3" })).toEqual(["0.speed: must be a decimal number"]);
    // A decimal string is checked as the number it reads as.
    expect(issues({ lat: "95.5" })).toEqual(["0.lat: Too big: expected number to be <=90"]);
    expect(issues({ speed: "-3" })).toEqual(["0.speed: Too small: expected number to be >=0"]);
    expect(issues({ dir: null })).toEqual(["0.dir: Invalid input: expected number, received null"]);
  });

  it("wraps the Wi-Fi password so it never prints", () => {
    const settings = deviceSettingsSchema.parse({
      g_sensor_en: 1,
      g_sensor_x: 10,
      g_sensor_y: 10,
      g_sensor_z: 10,
      preosd_plate: "B-AB 123",
      sys_tz: 1,
      sys_dst: "0,3,5,2",
      sys_spdparam: null,
      sys_accoffsec: 30,
      sys_eisp: "1,2",
      sys_edsp: "",
      sys_turn: "0",
      sys_gguard: 0,
      net_hbsec: 30,
      net_server: "10.0.0.1:6608",
      net_wfssid: "depot",
      net_wfpwd: "wifi-secret-123",
      net_2ndserver: "10.0.0.2:6608",
      net_2ndhb: 60,
      net_2nden: 0,
      cam_rec: "1111",
      cam_mirror: "0",
      enc_sres: "720P",
      enc_sfps: 25,
      enc_sbit: 2048,
    });
    expect(settings.net_wfpwd.reveal()).toBe("wifi-secret-123");
    for (const printed of [
      JSON.stringify(settings),
      inspect(settings, { depth: 5 }),
      `${settings.net_wfpwd}`,
    ]) {
      expect(printed).not.toContain("wifi-secret-123");
    }
  });
});

describe("record schemas", () => {
  it("requires exactly 1440 values of 0..3 in the daily map", () => {
    expect(dailyRecordMapSchema.safeParse(new Array(1440).fill(1)).success).toBe(true);
    expect(dailyRecordMapSchema.safeParse(new Array(1439).fill(1)).success).toBe(false);
    expect(dailyRecordMapSchema.safeParse(new Array(1441).fill(1)).success).toBe(false);
    expect(dailyRecordMapSchema.safeParse([...new Array(1439).fill(0), 4]).success).toBe(false);
    expect(dailyRecordMapSchema.safeParse([...new Array(1439).fill(0), "1"]).success).toBe(false);
  });

  it("refuses a record ending before it starts or of an unknown type", () => {
    expect(recordListSchema.safeParse([{ start: 10, end: 20, type: 2 }]).success).toBe(true);
    expect(recordListSchema.safeParse([{ start: 20, end: 10, type: 0 }]).success).toBe(false);
    expect(recordListSchema.safeParse([{ start: 10, end: 20, type: 3 }]).success).toBe(false);
  });
});
