import { createHash } from "node:crypto";
import { type Simulator, type SimulatorOptions, start, type WireEvent } from "@fleet-alerts/simulator";

/** Uppercase hex SHA-256, computed here independently of the simulator. */
export function sha256Upper(text: string): string {
  return createHash("sha256").update(text).digest("hex").toUpperCase();
}

export const DEMO = { username: "demo", password: sha256Upper("demo") };
export const ADMIN = { username: "admin", password: sha256Upper("admin") };

/** A small fleet with a short history: quick to start, still full of activity. */
export function startSmall(options: SimulatorOptions = {}): Promise<Simulator> {
  return start({ devices: 6, historyHours: 6, ...options });
}

export interface JsonResponse<T> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, as the type the test expects (undefined when not JSON). */
  json: T;
}

export interface ErrorBody {
  error: string;
  message: string;
}

/**
 * POSTs a JSON body. `body` may be a ready JSON text, for numbers JSON.stringify cannot write
 * (integers beyond 2^53).
 */
export async function post<T = ErrorBody>(
  simulator: Simulator,
  path: string,
  body: Record<string, unknown> | string,
  contentType = "application/json; charset=utf-8",
): Promise<JsonResponse<T>> {
  const response = await fetch(`${simulator.url}${path}`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json: json as T };
}

/** The event query as the demo account, with the given filters. */
export function queryEvents<T = WireEvent[]>(
  simulator: Simulator,
  filters: Record<string, unknown> = {},
): Promise<JsonResponse<T>> {
  return post<T>(simulator, "/gkevent/eventquery", { ...DEMO, ...filters });
}

/** A JSON body text with `raw` spliced in as literal members (e.g. `"afterSerialno":9007199254740993`). */
export function bodyWithRaw(fields: Record<string, unknown>, raw: string): string {
  const text = JSON.stringify(fields);
  return `${text.slice(0, -1)},${raw}}`;
}

/** Metres between two positions (equirectangular: exact enough over a city). */
export function metresBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const metresPerDegree = 111_320;
  const north = (b.lat - a.lat) * metresPerDegree;
  const east = (b.lng - a.lng) * metresPerDegree * Math.cos((((a.lat + b.lat) / 2) * Math.PI) / 180);
  return Math.hypot(north, east);
}

/** Degrees between two headings, 0..180. */
export function headingGap(a: number, b: number): number {
  const gap = Math.abs(a - b) % 360;
  return Math.min(gap, 360 - gap);
}

/** `YYYY-MM-DDTHH:mm:ss+hhmm` for an instant seen at a UTC offset. */
export function playbackTimestamp(epochMs: number, offsetMinutes = 0): string {
  const local = new Date(epochMs + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const magnitude = Math.abs(offsetMinutes);
  const hhmm = `${String(Math.floor(magnitude / 60)).padStart(2, "0")}${String(magnitude % 60).padStart(2, "0")}`;
  return `${local}${offsetMinutes < 0 ? "-" : "+"}${hhmm}`;
}

export interface ClipRequest {
  deviceid: string;
  chs?: string;
  duration: string | number;
  timestamp: string;
  password?: string;
  fileName?: string;
}

export function clipUrl(simulator: Simulator, request: ClipRequest): string {
  const target = encodeURIComponent(request.deviceid) + (request.chs === undefined ? "" : `@${request.chs}`);
  const segments = [
    target,
    String(request.duration),
    encodeURIComponent(request.timestamp),
    DEMO.username,
    request.password ?? DEMO.password,
    ...(request.fileName === undefined ? [] : [encodeURIComponent(request.fileName)]),
  ];
  return `${simulator.url}/dlplayback/${segments.join("/")}`;
}

/**
 * What the service answers to a playback of `minutes` from `at` on channel 1: 200, or the status
 * and error code of its refusal. A clip's body is not read.
 */
export async function playbackAnswer(
  simulator: Simulator,
  deviceid: string,
  at: Date,
  minutes = 1,
): Promise<{ status: number; error?: string }> {
  const response = await fetch(
    clipUrl(simulator, { deviceid, duration: minutes, timestamp: playbackTimestamp(at.getTime()) }),
  );
  if (response.ok) {
    await response.body?.cancel();
    return { status: response.status };
  }
  return { status: response.status, error: ((await response.json()) as ErrorBody).error };
}

/** The daily record map (endpoint 9) of the UTC day starting at `day`. */
export async function recordMap(simulator: Simulator, deviceid: string, day: Date): Promise<number[]> {
  return (await post<number[]>(simulator, "/api/record", { ...DEMO, deviceid, date: day.getTime() / 1000 }))
    .json;
}

/** The SD card record list (endpoint 4). */
export async function recordList(
  simulator: Simulator,
  deviceid: string,
): Promise<{ start: number; end: number; type: number }[]> {
  return (
    await post<{ start: number; end: number; type: number }[]>(simulator, "/api/recordlist", {
      ...DEMO,
      deviceid,
    })
  ).json;
}

/** The GPS history (endpoint 1) between two instants, both inclusive. */
export async function gpsPoints(
  simulator: Simulator,
  deviceid: string,
  from: Date,
  to: Date,
): Promise<{ time: number; speed: string }[]> {
  return (
    await post<{ time: number; speed: string }[]>(simulator, "/api/gps", {
      ...DEMO,
      deviceid,
      start: Math.floor(from.getTime() / 1000),
      end: Math.floor(to.getTime() / 1000),
    })
  ).json;
}

/** The simulator's default clock start, and the UTC day it begins. */
export const CLOCK_START = new Date("2026-01-05T00:00:00Z");

/** The minute of the clock start's day an instant falls in (an index into that day's record map). */
export function minuteOfStartDay(epochMs: number): number {
  return Math.floor((epochMs - CLOCK_START.getTime()) / 60_000);
}
