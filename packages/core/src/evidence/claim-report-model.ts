import { eventCodeName } from "../devicecloud/codes.js";
import { displayName } from "../text/display.js";
import type { EvidenceJob } from "./job.js";
import { type ClaimPackManifest, footageOf, type TrackGap } from "./manifest.js";
import type { ClaimReportModel, ReportFile, ReportTrackPoint } from "./report/model.js";
import type { TrackGeoJson } from "./track-geojson.js";
import { overwrittenSentence } from "./waiting-text.js";

/** What the report says when the track could not be had, by the manifest's reason. */
const TRACK_GAP_TEXT: Record<TrackGap, string> = {
  disabled: "this deployment does not read the device cloud's GPS history",
  timeout: "the device cloud's GPS history did not answer in time",
  failed: "the device cloud's GPS history answered with an error",
  malformed: "the device cloud's GPS history answered something that is not a GPS track",
  empty: "the device cloud's GPS history had no point for this device",
  "no-point-in-window": "the device cloud's GPS history had no point within the evidence window",
};

/** What a request's report and incident page call it: there is no event to name. */
export const REQUESTED_FOOTAGE_NAME = "Footage requested";

export interface ReportSettings {
  sourceOrganization: string;
  fleetTimeZone: string;
  timestamped: boolean;
}

/** What the report reads of the alert: its evidence job has it, and so has its record (the incident page). */
export type ReportAlertFacts = Pick<EvidenceJob, "alert" | "event" | "serialno" | "eventtime" | "deviceid">;

/**
 * The report's model from the custody record, the alert (as published) and the stored track
 * (pure). Paths are the bag's, relative to its root: `prefix` is cut from every key.
 */
export function claimReportModel(
  job: ReportAlertFacts,
  manifest: ClaimPackManifest,
  track: TrackGeoJson | undefined,
  prefix: string,
  settings: ReportSettings,
): ClaimReportModel {
  const { alert } = job;
  const eventCode = Number(job.event.appdevid);
  const inBag = (key: string) => key.slice(prefix.length);
  const eventFeature = track?.features.find((feature) => feature.properties.kind === "event");
  const speedAtEventKmh = alert?.speedKmh ?? manifest.speed.atEventKmh ?? undefined;
  const position =
    alert?.position ??
    (eventFeature && {
      lng: eventFeature.geometry.coordinates[0] as number,
      lat: eventFeature.geometry.coordinates[1] as number,
      source: (eventFeature.properties as { source: "event" | "track" }).source,
    });
  const { request } = manifest;
  return {
    alert: manifest.alert,
    event: {
      ...(request
        ? { name: REQUESTED_FOOTAGE_NAME }
        : {
            name: alert?.eventName ?? (Number.isInteger(eventCode) ? eventCodeName(eventCode) : "event"),
            code: alert?.eventCode ?? eventCode,
          }),
      serialno: job.serialno,
      eventMs: Date.parse(job.eventtime),
      deviceid: job.deviceid,
      // For people: on one line, cut; a name that shows as nothing is no name (text/display.ts).
      ...(displayName(alert?.vehicleid) && { vehicle: displayName(alert?.vehicleid) }),
      ...(displayName(alert?.drivername) && { driver: displayName(alert?.drivername) }),
    },
    fleetTimeZone: settings.fleetTimeZone,
    ...(position && { position: { lat: position.lat, lng: position.lng, source: position.source } }),
    ...(speedAtEventKmh !== undefined && { speedAtEventKmh }),
    ...(alert?.speedLimitKmh != null && { speedLimitKmh: alert.speedLimitKmh }),
    window: { startMs: manifest.window.startMs, endMs: manifest.window.endMs },
    track:
      manifest.track.status === "stored" && track
        ? { status: "stored", points: trackPoints(track) }
        : {
            status: "unavailable",
            reason:
              manifest.track.status === "unavailable"
                ? TRACK_GAP_TEXT[manifest.track.reason]
                : "the stored track could not be read back to draw it (its file and digest are listed below)",
          },
    clips: manifest.clips.map((clip) => ({
      path: inBag(clip.key),
      channel: clip.channel,
      part: clip.part,
      startMs: clip.startMs,
      endMs: clip.startMs + clip.durationMinutes * 60_000,
      bytes: clip.bytes,
      sha256: clip.sha256,
      ...(clip.mp4DurationMs !== undefined && { mp4DurationMs: clip.mp4DurationMs }),
      requestedAt: clip.requestedAt,
      endpoint: clip.playback.url,
      storedAt: clip.fetchedAt,
    })),
    files: payloadFiles(manifest, inBag),
    missing: missingSentences(manifest),
    custody: {
      sourceOrganization: settings.sourceOrganization,
      software: manifest.software,
      functionVersion: manifest.functionVersion,
      baggedAt: manifest.createdAt,
      ...(request && { request }),
    },
    timestamped: settings.timestamped,
  };
}

/** The payload and the custody record, as the report lists them. */
function payloadFiles(manifest: ClaimPackManifest, inBag: (key: string) => string): ReportFile[] {
  const clips = manifest.clips.map((clip) => ({
    path: inBag(clip.key),
    bytes: clip.bytes,
    sha256: clip.sha256,
    description: `video, channel ${clip.channel}${clip.part > 0 ? `, part ${clip.part + 1}` : ""}, as the device cloud served it`,
  }));
  const track =
    manifest.track.status === "stored"
      ? [
          {
            path: inBag(manifest.track.key),
            bytes: manifest.track.bytes,
            sha256: manifest.track.sha256,
            description: `GPS track, ${manifest.track.points} points (GeoJSON)`,
          },
        ]
      : [];
  return [
    ...clips,
    {
      path: inBag(manifest.eventFile.key),
      bytes: manifest.eventFile.bytes,
      sha256: manifest.eventFile.sha256,
      description: manifest.request
        ? "the request for this footage as it was made (JSON): no event was raised"
        : "the event as the device cloud sent it (JSON)",
    },
    ...track,
  ];
}

/** One sentence per thing that could not be had, with why. */
function missingSentences(manifest: ClaimPackManifest): string[] {
  const sentences: string[] = [];
  const footage = footageOf(manifest);
  if (footage.outcome === "overwritten") sentences.push(overwrittenSentence(footage));
  else if (manifest.clips.length === 0)
    sentences.push(
      "No video: the recorder's record map showed no recording in the window when the evidence was given up (the device had not recorded or uploaded those minutes).",
    );
  // With no video at all, each gap would only repeat the sentence above.
  const gaps = manifest.clips.length === 0 ? [] : manifest.coverage.missing;
  for (const gap of gaps)
    sentences.push(
      `No recording from ${new Date(gap.startMs).toISOString()} to ${new Date(gap.endMs).toISOString()}: the recorder's record map shows none.`,
    );
  for (const channel of manifest.skippedChannels)
    sentences.push(`Channel ${channel} was asked for, but the device has no channel ${channel}.`);
  if (manifest.track.status === "unavailable")
    sentences.push(`No GPS track: ${TRACK_GAP_TEXT[manifest.track.reason]}.`);
  return sentences;
}

function trackPoints(track: TrackGeoJson): ReportTrackPoint[] {
  const feature = track.features.find((candidate) => candidate.properties.kind === "track");
  if (feature?.properties.kind !== "track") return [];
  const { times, speedsKmh } = feature.properties;
  const coordinates =
    feature.geometry.type === "LineString" ? feature.geometry.coordinates : [feature.geometry.coordinates];
  return coordinates.map(([lng, lat], index) => ({
    lat: lat as number,
    lng: lng as number,
    timeMs: Date.parse(times[index] as string),
    speedKmh: speedsKmh[index] ?? null,
  }));
}
