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
