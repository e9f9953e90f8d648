import { createHash } from "node:crypto";
import {
  DeviceCloudHttpError,
  DeviceCloudInvalidResponseError,
  DeviceCloudTimeoutError,
  type GpsHistoryRequest,
  type GpsPoint,
} from "@fleet-alerts/core/devicecloud";
import { collectTrack, type EvidenceSink, evidenceWindow } from "@fleet-alerts/core/evidence";
import { describe, expect, it } from "vitest";

const EVENT_MS = Date.parse("2026-11-23T10:00:07.500Z");
const JOB = {
  deviceid: "D1",
  eventtime: new Date(EVENT_MS).toISOString(),
  event: { appdevid: 16, deviceid: "D1" },
};
// [10:00:02, 10:00:17.5) (the window starts on a whole second); /api/gps is asked for 10:00:02 to 10:00:18.
const WINDOW = evidenceWindow(EVENT_MS, 5, 10);
const START = Math.floor(WINDOW.startMs / 1000);
const KMH = { speedUnit: "km/h", lookups: true } as const;

/** GPS points every 5 s from `fromSeconds` (UNIX), heading east at `speed`. */
function points(fromSeconds: number, count: number, speed = 50): GpsPoint[] {
  return Array.from({ length: count }, (_, i) => ({
    lat: 47,
    lng: 8.5 + i * 0.001,
    speed,
    dir: 90,
    time: fromSeconds + i * 5,
  }));
}

/** A device cloud answering /api/gps with `answer`, and a store keeping what is put. */
function harness(answer: (request: GpsHistoryRequest) => Promise<GpsPoint[]>) {
  const requests: GpsHistoryRequest[] = [];
  const objects = new Map<string, { body: string; contentType: string }>();
  const store: Pick<EvidenceSink, "putObject"> = {
    async putObject(key, body, contentType) {
      if (typeof body !== "string") throw new Error("the track is put as text");
      objects.set(key, { body, contentType });
      return { bytes: Buffer.byteLength(body), sha256Hex: createHash("sha256").update(body).digest("hex") };
    },
  };
  const client = {
    gpsHistory: (request: GpsHistoryRequest) => {
      requests.push(request);
      return answer(request);
    },
  };
  return { requests, objects, deps: { client, store } };
}

describe("the evidence track", () => {
  it("asks /api/gps once for the window in whole seconds, and stores the GeoJSON with its digest", async () => {
    const { requests, objects, deps } = harness(async () => points(START - 10, 8));
    const result = await collectTrack(JOB, WINDOW, "evidence/D1/", KMH, deps);
    expect(requests).toEqual([{ deviceid: "D1", start: START, end: START + 16 }]);
    const stored = objects.get("evidence/D1/data/track.geojson");
    expect(stored?.contentType).toBe("application/geo+json");
    expect(result.track).toEqual({
      status: "stored",
      key: "evidence/D1/data/track.geojson",
      sha256: createHash("sha256")
        .update(stored?.body ?? "")
        .digest("hex"),
      bytes: Buffer.byteLength(stored?.body ?? ""),
      // Points at START-10 and START-5 are outside the range asked, START+20 and later too.
      points: 4,
    });
    expect(result.speed).toMatchObject({ atEventKmh: 50, maxKmh: 50 });
    expect(result.speed.distanceMeters).toBeCloseTo(3 * 75.8, 0);
    // What was stored, for the claim pack's report to draw without reading it back.
    expect(`${JSON.stringify(result.geojson)}\n`).toBe(stored?.body);
  });

  it.each([
    ["failed", new DeviceCloudHttpError("gpsHistory", 500, 4)],
    ["malformed", new DeviceCloudInvalidResponseError("gpsHistory", "not an array")],
    ["timeout", new DeviceCloudTimeoutError("gpsHistory", 10_000, 4)],
    ["failed", new Error("connection refused")],
  ])("records the track unavailable (%s) when the call fails, without throwing", async (reason, error) => {
    const { objects, deps } = harness(() => Promise.reject(error));
    expect(await collectTrack(JOB, WINDOW, "p/", KMH, deps)).toEqual({
      track: { status: "unavailable", reason },
      speed: { atEventKmh: null, maxKmh: null, distanceMeters: null },
    });
    expect(objects.size).toBe(0);
  });

  it("tells an empty answer from one with no plausible point in the window", async () => {
    const empty = harness(async () => []);
    expect((await collectTrack(JOB, WINDOW, "p/", KMH, empty.deps)).track).toEqual({
      status: "unavailable",
      reason: "empty",
    });
    const outside = harness(async () => [
      ...points(START - 60, 2),
      { lat: 0, lng: 0, speed: 0, dir: 0, time: START + 5 },
    ]);
    expect((await collectTrack(JOB, WINDOW, "p/", KMH, outside.deps)).track).toEqual({
      status: "unavailable",
      reason: "no-point-in-window",
    });
  });

  it("stores a track of one point", async () => {
    const { objects, deps } = harness(async () => points(START + 5, 1));
    const result = await collectTrack(JOB, WINDOW, "p/", KMH, deps);
    expect(result.track).toMatchObject({ status: "stored", points: 1 });
    expect(result.speed).toEqual({ atEventKmh: 50, maxKmh: 50, distanceMeters: 0 });
    expect(JSON.parse(objects.get("p/data/track.geojson")?.body ?? "").features[0].geometry.type).toBe(
      "Point",
    );
  });

  it("converts the account's unit to km/h", async () => {
    const { deps } = harness(async () => points(START, 4, 30));
    const result = await collectTrack(JOB, WINDOW, "p/", { speedUnit: "knots", lookups: true }, deps);
    expect(result.speed).toMatchObject({ atEventKmh: 55.56, maxKmh: 55.56 });
  });

  it("does not call /api/gps for an account that never does", async () => {
    const { requests, deps } = harness(async () => points(START, 4));
    const result = await collectTrack(JOB, WINDOW, "p/", { speedUnit: "km/h", lookups: false }, deps);
    expect(result.track).toEqual({ status: "unavailable", reason: "disabled" });
    expect(requests).toEqual([]);
  });
});
