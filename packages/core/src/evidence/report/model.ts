import type { PositionSource } from "../../context/incident-context.js";
import type { FootageRequest } from "../request-custody.js";

/** A GPS point of the evidence window, in km/h, as `data/track.geojson` holds it. */
export interface ReportTrackPoint {
  lat: number;
  lng: number;
  timeMs: number;
  speedKmh: number | null;
}

/** One stored clip, with its chain of custody. */
export interface ReportClip {
  /** Relative to the bag's root, e.g. `data/ch1.mp4`: the `<video>` source. */
  path: string;
  channel: number;
  /** From 0, when the window needed several playback requests. */
  part: number;
  startMs: number;
  endMs: number;
  bytes: number;
  sha256: string;
  /** From the MP4's own header, when it states one. */
  mp4DurationMs?: number;
  /** When the playback was requested from the device cloud. */
  requestedAt: string;
  /** The request as sent, the password replaced by [redacted]. */
  endpoint: string;
  /** When the verified clip was in the evidence store. */
  storedAt: string;
}

/** A file of the bag with its size and digest (the report cannot list itself). */
export interface ReportFile {
  path: string;
  bytes: number;
  sha256: string;
  /** What it is, for a reader: "video, channel 1", "the event as received", ... */
  description: string;
}

/**
 * Everything `report.html` shows, gathered by the evidence function from the alert, the custody
 * record and the track; the renderer reads nothing else and does no I/O.
 */
export interface ClaimReportModel {
  alert: { alertId: string; account: string; ruleId: string; severity: string };
  event: {
    name: string;
    /** None for footage asked for by hand: no event was raised. */
    code?: number;
    serialno: string;
    eventMs: number;
    deviceid: string;
    vehicle?: string;
    driver?: string;
  };
  /** IANA zone the fleet reads times in, e.g. "Europe/Berlin"; times are shown in UTC and in it. */
  fleetTimeZone: string;
  /** Where the vehicle was at the event, and where that came from. */
  position?: { lat: number; lng: number; source: PositionSource };
  speedAtEventKmh?: number;
  /** For an OverSpeed: the limit stated, drawn on the speed chart. */
  speedLimitKmh?: number;
  window: { startMs: number; endMs: number };
  /** The track over the window, or why there is none. */
  track: { status: "stored"; points: ReportTrackPoint[] } | { status: "unavailable"; reason: string };
  clips: ReportClip[];
  /** Every payload file and the custody record, with size and SHA-256. */
  files: ReportFile[];
  /** What could not be had and why, one sentence each (missing minutes, channels, track, ...). */
  missing: string[];
  custody: {
    sourceOrganization: string;
    software: { name: string; version: string };
    /** The Lambda function version (or "local"). */
    functionVersion: string;
    baggedAt: string;
    /** Footage asked for by hand: who asked, why and when (the operator's words). */
    request?: FootageRequest;
  };
  /** Whether this stage stamps bags: then the report frames `timestamp.html`, written after the token. */
  timestamped: boolean;
}
