import * as z from "zod";
import { EVENT_CODES } from "../devicecloud/codes.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import type { Rule } from "../rules/schema.js";
import { eventCoordinates } from "./event-coordinates.js";
import { GPS_HISTORY_GAP_TEXT, type GpsHistory } from "./gps-history.js";
import {
  motionOnTrack,
  NEAREST_POINT_TOLERANCE_MS,
  positionOnTrack,
  type TrackMotion,
  type TrackPoint,
} from "./gps-track.js";
import { readOverSpeedMemo } from "./overspeed-memo.js";

/** Where an alert's position came from, best first. */
export const POSITION_SOURCES = ["event", "track", "last-known"] as const;
export const positionSourceSchema = z.enum(POSITION_SOURCES);
export type PositionSource = z.output<typeof positionSourceSchema>;

export const SPEED_SOURCES = ["track", "memo", "last-known"] as const;
export type SpeedSource = (typeof SPEED_SOURCES)[number];

export interface IncidentPosition {
  lat: number;
  lng: number;
  source: PositionSource;
  /** When the vehicle was there: the event time, a GPS point's time, or the last fix's time. */
  fixMs: number;
  /** For a track position: between two points, or the nearest one. */
  method?: "interpolated" | "nearest";
}

export interface IncidentMotion {
  speedKmh: number;
  source: SpeedSource;
  /** Degrees clockwise from north. */
  headingDeg?: number;
}

/** Where the vehicle was and how it moved at the event, each with where it came from. */
export interface IncidentContext {
  position?: IncidentPosition;
  /** Why the position is unknown, when it is. */
  positionGap?: string;
  motion?: IncidentMotion;
  /** For an OverSpeed: the limit the event's memo states, else the rule's. */
  speedLimitKmh?: number;
}

export interface IncidentInput {
  event: DeviceEvent;
  rule: Pick<Rule, "speedLimitKmh">;
  /** The device's entry in the all-devices list (its last status fix), when it could be had. */
  device: FleetDevice | undefined;
  /** The device's GPS history around the event. */
  history: GpsHistory;
}

/**
 * The position, speed and heading at the event, pure. Position: the event's own coordinates, else
 * the GPS history at the event time, else the last status fix (labelled, since it may be minutes
 * or hours away from the event). Speed and heading: the GPS history; for an OverSpeed without one,
 * the speed its memo states; else the last fix, but only when it was taken at the event.
 */
export function resolveIncidentContext({ event, rule, device, history }: IncidentInput): IncidentContext {
  const eventMs = Date.parse(event.eventtime);
  const overSpeed = event.appdevid === EVENT_CODES.OverSpeed;
  const memo = overSpeed ? readOverSpeedMemo(event.memo) : {};
  const fix = device?.gpsdata;
  const placed = placeAtEvent(event, history.status === "ok" ? history.track : [], eventMs);

  const context: IncidentContext = {};
  if (placed.position) context.position = placed.position;
  else if (fix) context.position = { lat: fix.lat, lng: fix.lng, source: "last-known", fixMs: fix.time };
  else context.positionGap = gapOf(history, device);

  if (placed.motion) context.motion = { ...placed.motion, source: "track" };
  else if (memo.speedKmh !== undefined) context.motion = { speedKmh: memo.speedKmh, source: "memo" };
  else if (fix && Math.abs(fix.time - eventMs) <= NEAREST_POINT_TOLERANCE_MS)
    context.motion = { speedKmh: fix.speedInKmh, headingDeg: fix.trackingAngle, source: "last-known" };
  const limit = memo.limitKmh ?? (overSpeed ? rule.speedLimitKmh : undefined);
  if (limit !== undefined) context.speedLimitKmh = limit;
  return context;
}

/**
 * A stale alert's context. It is never sent, so no GPS lookup is spent on it in a backlog, and the
 * last status fix, taken hours after the event, is left out: the claim report would show it in
 * place of the event's point on the evidence's own track. What the event itself says remains: its
 * coordinates, and an OverSpeed's memo speed and limit.
 */
export function staleIncidentContext(event: DeviceEvent, rule: Pick<Rule, "speedLimitKmh">): IncidentContext {
  const context = resolveIncidentContext({
    event,
    rule,
    device: undefined,
    history: { status: "ok", track: [] },
  });
  if (context.position) return context;
  return {
    ...context,
    positionGap: "the event had no coordinates, and a stale alert's position is not looked up",
  };
}

/**
 * What the event itself and the GPS track say, with no status fix or memo: the position from the
 * event's coordinates, else the track at the event time; speed and heading from the track (for an
 * OverSpeed, the sample that crossed the limit). The alerts and the evidence both place events so.
 */
export function placeAtEvent(
  // As parsed, or as an evidence job quotes it: fields the spec leaves untyped.
  event: { vehiclex?: unknown; vehicley?: unknown; appdevid?: unknown },
  track: readonly TrackPoint[],
  eventMs: number,
): { position?: IncidentPosition & { source: "event" | "track" }; motion?: TrackMotion } {
  const coordinates = eventCoordinates(event);
  const onTrack = coordinates ? undefined : positionOnTrack(track, eventMs);
  const motion = motionOnTrack(track, eventMs, event.appdevid === EVENT_CODES.OverSpeed);
  const position = coordinates
    ? { ...coordinates, source: "event" as const, fixMs: eventMs }
    : onTrack && { ...onTrack, source: "track" as const };
  return { ...(position && { position }), ...(motion && { motion }) };
}

function gapOf(history: GpsHistory, device: FleetDevice | undefined): string {
  const track =
    history.status === "ok"
      ? "the GPS history had no point near the event"
      : GPS_HISTORY_GAP_TEXT[history.reason];
  const status = device === undefined ? "no device status was available" : "the device reported no GPS fix";
  return `the event had no coordinates, ${track}, and ${status}`;
}
