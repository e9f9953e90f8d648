import { fetchGpsTrack } from "../context/gps-lookup.js";
import type { SpeedUnit } from "../context/speed-unit.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { EvidenceJob } from "./job.js";
import { trackKey } from "./layout.js";
import type { ManifestTrack, SpeedSummary, TrackGap } from "./manifest.js";
import type { EvidenceSink } from "./ports.js";
import { type TrackGeoJson, trackBody, trackGeoJson } from "./track-geojson.js";
import { eventFix, NO_SPEED_SUMMARY, speedSummary } from "./track-summary.js";
import type { EvidenceWindow } from "./window.js";

/** The account's /api/gps as the evidence reads it. */
export interface TrackSettings {
  /** The unit of the service's `speed` values. */
  speedUnit: SpeedUnit;
  /** False when the account never calls /api/gps (its lookup budget is 0). */
  lookups: boolean;
}

/**
 * The whole /api/gps call, retries included. The client's own retries stop within 20 s; this also
 * caps a service that trickles its answer, so a slow track delays an evidence set by 30 s at most.
 */
const TRACK_LOOKUP_BUDGET_MS = 30_000;

export interface EvidenceTrack {
  track: ManifestTrack;
  speed: SpeedSummary;
  /** What was stored, for the claim pack's report. */
  geojson?: TrackGeoJson;
}

/**
 * `track.geojson` for an evidence set: ONE /api/gps call over the window (widened to whole seconds),
 * the points converted to km/h, the GeoJSON stored beside the clips.
 *
 * A track that cannot be had (the call fails, times out, answers something malformed, or has no
 * plausible point in the window) is recorded as unavailable with the reason, and never thrown: the
 * clips are stored already, and a retry through SQS would fetch them again for a track that a
 * failing or empty GPS history is unlikely to give a minute later, and could keep the job from
 * ever completing. A failure to STORE the track is thrown like a clip's (S3 is ours; SQS retries).
 */
export async function collectTrack(
  job: Pick<EvidenceJob, "deviceid" | "eventtime" | "event">,
  window: EvidenceWindow,
  prefix: string,
  settings: TrackSettings,
  deps: { client: Pick<DeviceCloud, "gpsHistory">; store: Pick<EvidenceSink, "putObject"> },
): Promise<EvidenceTrack> {
  const range = {
    start: Math.floor(window.startMs / 1000),
    end: Math.ceil(window.endMs / 1000),
  };
  if (!settings.lookups) return unavailable("disabled");
  const fetched = await fetchGpsTrack(
    deps.client,
    { deviceid: job.deviceid, ...range },
    settings.speedUnit,
    AbortSignal.timeout(TRACK_LOOKUP_BUDGET_MS),
  );
  if (fetched.status === "unavailable") return unavailable(fetched.reason);
  // Only the range asked for: whether the service's ends are inclusive is not shown in the spec.
  const track = fetched.track.filter(
    (point) => point.timeMs >= range.start * 1000 && point.timeMs <= range.end * 1000,
  );
  if (track.length === 0) return unavailable("no-point-in-window");

  const fix = eventFix(job.event, track, Date.parse(job.eventtime));
  const key = trackKey(prefix);
  const geojson = trackGeoJson(job.deviceid, track, fix);
  const stored = await deps.store.putObject(key, trackBody(geojson), "application/geo+json");
  return {
    track: {
      status: "stored",
      key,
      sha256: stored.sha256Hex,
      bytes: stored.bytes,
      points: track.length,
      ...(stored.versionId !== undefined && { versionId: stored.versionId }),
    },
    speed: speedSummary(track, fix),
    geojson,
  };
}

function unavailable(reason: TrackGap): EvidenceTrack {
  return { track: { status: "unavailable", reason }, speed: NO_SPEED_SUMMARY };
}
