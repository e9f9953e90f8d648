import type { ClaimReportModel, ReportTrackPoint } from "@fleet-alerts/core/evidence";

/** An OverSpeed in Berlin in summer (CEST, UTC+2): 2026-07-14 10:15:40 local. */
export const EVENT_MS = Date.parse("2026-07-14T08:15:40.000Z");
export const WINDOW = { startMs: EVENT_MS - 40_000, endMs: EVENT_MS + 20_000 };
const METRES_PER_DEGREE = 111_195.08;
/** Seconds into the window where the receiver lost speed (the chart must break there). */
const SPEEDLESS_SECONDS = new Set([50, 51, 52]);

/**
 * A point a second over the window (61), eastward from the Brandenburg Gate and bending north-east,
 * speeding up to 68 km/h at the event (40 s in) and slowing after it.
 */
export function drive(): ReportTrackPoint[] {
  const points: ReportTrackPoint[] = [];
  let [lat, lng, lastSpeed] = [52.5163, 13.3777, 30];
  for (let second = 0; second <= 60; second++) {
    const speed = second <= 40 ? 30 + (38 * second) / 40 : 68 - (second - 40) * 1.2;
    const speedKmh = SPEEDLESS_SECONDS.has(second) ? null : Math.round(speed * 10) / 10;
    points.push({ lat, lng, timeMs: WINDOW.startMs + second * 1000, speedKmh });
    lastSpeed = speedKmh ?? lastSpeed;
    const heading = ((90 - second * 0.6) * Math.PI) / 180;
    const metres = lastSpeed / 3.6;
    lat += (metres * Math.cos(heading)) / METRES_PER_DEGREE;
    lng += (metres * Math.sin(heading)) / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180));
  }
  return points;
}

export interface ClipFacts {
  bytes: number;
  sha256: string;
}

const PLACEHOLDER_CLIP: ClipFacts = { bytes: 24_090, sha256: "ab".repeat(32) };

/** A realistic model: two channels over the whole window, the track, a stamped stage. */
export function claimReportModel(
  clipFacts: readonly ClipFacts[] = [PLACEHOLDER_CLIP, PLACEHOLDER_CLIP],
): ClaimReportModel {
  const track = drive();
  const atEvent = track[40] as ReportTrackPoint;
  const clips = clipFacts.map((facts, index) => ({
    path: `data/ch${index + 1}.mp4`,
    channel: index + 1,
    part: 0,
    startMs: WINDOW.startMs,
    endMs: WINDOW.endMs,
    ...facts,
    mp4DurationMs: 60_000,
    requestedAt: `2026-07-14T08:16:2${index}.412Z`,
    endpoint: `https://cloud.example.net/dlplayback/1000123@${index + 1}/1/2026-07-14%2010%3A15%3A00%2B02%3A00/fleetops/[redacted]`,
    storedAt: `2026-07-14T08:16:3${index}.087Z`,
  }));
  return {
    alert: {
      alertId: "east:1000123:overspeed:88412",
      account: "east",
      ruleId: "overspeed-city",
      severity: "high",
    },
    event: {
      name: "OverSpeed",
      code: 13,
      serialno: "88412",
      eventMs: EVENT_MS,
      deviceid: "1000123",
      vehicle: "B-FA 1234",
      driver: "Jana Köhler",
    },
    fleetTimeZone: "Europe/Berlin",
    position: { lat: atEvent.lat, lng: atEvent.lng, source: "track" },
    speedAtEventKmh: 68,
    speedLimitKmh: 50,
    window: WINDOW,
    track: { status: "stored", points: track },
    clips,
    files: [
      ...clips.map(({ path, bytes, sha256, channel }) => ({
        path,
        bytes,
        sha256,
        description: `video, channel ${channel}`,
      })),
      { path: "data/event.json", bytes: 812, sha256: "cd".repeat(32), description: "the event as received" },
      { path: "data/track.geojson", bytes: 9_344, sha256: "ef".repeat(32), description: "the GPS track" },
      { path: "manifest.json", bytes: 4_210, sha256: "01".repeat(32), description: "the custody record" },
    ],
    missing: [],
    custody: {
      sourceOrganization: "Example Logistics GmbH",
      software: { name: "fleet-alerts", version: "0.1.0" },
      functionVersion: "17",
      baggedAt: "2026-07-14T08:16:31.250Z",
    },
    timestamped: true,
  };
}
