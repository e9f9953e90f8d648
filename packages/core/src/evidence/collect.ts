import type { AlertPublisher, AlertRecords } from "../alerts/ports.js";
import { formatPlaybackTimestamp } from "../devicecloud/playback-request.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { Observer } from "../observer.js";
import type { JobQueue } from "../queue/ports.js";
import type { CardRetention } from "../recorder/ports.js";
import { BAG_FILES } from "./bag/bag-layout.js";
import { collectClips } from "./collect-clips.js";
import { checkFootage } from "./footage-check.js";
import { type EvidenceJob, jobIds } from "./job.js";
import { eventKey, evidencePrefix, manifestKey } from "./layout.js";
import { type CurrentManifest, isClaimPackManifest } from "./manifest.js";
import type { EvidenceSink, ParkedEvidence } from "./ports.js";
import { finish, packAndStamp } from "./settle.js";
import type { TsaSettings } from "./timestamp/index.js";
import { collectTrack, type TrackSettings } from "./track.js";
import { evidenceWindow } from "./window.js";

export interface EvidenceSettings {
  /** The fleet's UTC offset, minutes east: how playback timestamps and record days are written. */
  utcOffsetMinutes: number;
  /**
   * The longest footage not on the device cloud is waited for, in days after the event: the card's
   * retention when it is known and shorter (waiting.ts).
   */
  maxWaitDays: number;
  /** First wait before looking again for footage not recorded yet; doubles each time (SQS: 900 s at most). */
  retryDelaySeconds: number;
  evidenceBucket: string;
  software: { name: string; version: string };
  /** The job's account's /api/gps, for `track.geojson`. */
  track: TrackSettings;
  claimPack: {
    /** bag-info.txt's Source-Organization: who made the bag. */
    sourceOrganization: string;
    /** IANA zone the report shows times in, beside UTC. */
    fleetTimeZone: string;
    /** The Lambda function version ("local" in the local mode), for the chain of custody. */
    functionVersion: string;
    /** The Time-Stamp Authority, when the stage stamps its bags. */
    tsa?: TsaSettings;
  };
}

export interface EvidenceDependencies {
  client: DeviceCloud;
  store: EvidenceSink;
  alerts: AlertRecords;
  publisher: AlertPublisher;
  /** The evidence queue itself, to come back later for footage not recorded yet. */
  requeue: JobQueue;
  /** Where a job waits while its device is offline (park.ts). */
  parked: ParkedEvidence;
  /** How long each device's card keeps its footage: when a waiting job gives up. */
  retention: CardRetention;
  observer: Observer;
  now: () => number;
  /**
   * The real clock the evidence notice's claim is timed on (announce-once.ts): never the local
   * mode's business clock `now`, which runs fast.
   */
  wallClock: () => number;
  /** Told how a download is going (the local mode shows it); `totalBytes` when the service said. */
  progress?: (download: { key: string; bytes: number; totalBytes?: number }) => void;
  /**
   * The incident page of an alert, its token derived from the alert id as the alert's own link's
   * was (never stored); unset where the function has no SHARE_LINK_SECRET or no PUBLIC_BASE_URL.
   */
  incidentLink?: (alertId: string) => string;
}

export type EvidenceOutcome =
  | { kind: "stored"; manifestKey: string; clips: number; partial: boolean }
  | { kind: "already-stored"; manifestKey: string }
  | { kind: "not-recorded-yet"; retryInSeconds: number }
  /** Kept until the device comes online (park.ts). */
  | { kind: "parked" }
  | { kind: "unavailable" };

/**
 * Fetches the video around one alert into S3. Idempotent: a complete manifest means done; a clip
 * already stored (a crash before the manifest) is reused; the manifest is written last. Any
 * failure (HTTP, time-out, truncated or non-MP4 body) is thrown after the upload is aborted, for
 * SQS to retry.
 */
export async function collectEvidence(
  job: EvidenceJob,
  settings: EvidenceSettings,
  deps: EvidenceDependencies,
): Promise<EvidenceOutcome> {
  const prefix = evidencePrefix(job);
  const key = manifestKey(prefix);
  const ids = jobIds(job);
  const existing = await deps.store.readManifest(key);
  if (existing) {
    // Sets stored before claim packs (versions 1 and 2) keep their layout: their clips are not under
    // data/ and, under Object Lock, cannot be moved there.
    if (isClaimPackManifest(existing.manifest))
      await packAndStamp(
        job,
        prefix,
        { manifest: existing.manifest, stored: existing.stored },
        settings,
        deps,
      );
    await finish(job, settings, deps, { manifestKey: key, manifest: existing.manifest });
    return { kind: "already-stored", manifestKey: key };
  }

  const window = evidenceWindow(Date.parse(job.eventtime), job.secondsBefore, job.secondsAfter);
  const footage = await checkFootage(job, window, settings, deps);
  if (footage.kind === "waiting") return footage.outcome;
  const recorded = footage.coverage;
  // Given up on video, the bag still holds the event, the track and a report saying why there is none.
  const { clips, skipped } =
    footage.kind === "recorded"
      ? await collectClips(job, prefix, footage.coverage.recordedSpan, settings, deps)
      : { clips: [], skipped: [] };
  // After the clips, so that a retried download does not ask for the track again, and the track
  // has had the longest time to reach the service.
  const { track, speed, geojson } = await collectTrack(job, window, prefix, settings.track, deps);
  const eventFile = await deps.store.putObject(
    eventKey(prefix),
    `${JSON.stringify(job.event, null, 2)}\n`,
    "application/json",
  );
  const manifest: CurrentManifest = {
    version: 4,
    status: "complete",
    alert: { alertId: job.alertId, account: job.account, ruleId: job.ruleId, severity: job.severity },
    event: job.event,
    eventFile: { key: eventKey(prefix), sha256: eventFile.sha256Hex, bytes: eventFile.bytes },
    window: {
      startMs: window.startMs,
      endMs: window.endMs,
      secondsBefore: job.secondsBefore,
      secondsAfter: job.secondsAfter,
      utcOffset: formatPlaybackTimestamp(new Date(0), settings.utcOffsetMinutes).slice(-5),
    },
    coverage: {
      totalMinutes: recorded.totalMinutes,
      recordedMinutes: recorded.recordedMinutes,
      partial: recorded.recordedMinutes < recorded.totalMinutes,
      missing: recorded.missing,
    },
    clips,
    skippedChannels: skipped,
    footage: footage.kind === "recorded" ? { outcome: "recorded" } : footage.footage,
    track,
    speed,
    software: settings.software,
    functionVersion: settings.claimPack.functionVersion,
    createdAt: new Date(deps.now()).toISOString(),
    ...(job.request && { request: job.request }),
  };
  const stored = await deps.store.putManifest(key, manifest);
  const timestamp = await packAndStamp(job, prefix, { manifest, stored }, settings, deps, geojson);
  await finish(job, settings, deps, { manifestKey: key, manifest });
  const bag = { prefix, report: `${prefix}${BAG_FILES.report}`, timestamp };
  if (clips.length === 0) {
    deps.observer.observe({
      type: "evidence-unavailable",
      ...ids,
      bucket: settings.evidenceBucket,
      bag,
      footage: manifest.footage.outcome === "overwritten" ? "overwritten" : "not-recorded",
    });
    return { kind: "unavailable" };
  }
  deps.observer.observe({
    type: "evidence-stored",
    ...ids,
    bucket: settings.evidenceBucket,
    manifestKey: key,
    clips: clips.map(({ key: clipKey, channel, bytes, sha256 }) => ({
      key: clipKey,
      channel,
      bytes,
      sha256,
    })),
    partial: manifest.coverage.partial,
    track,
    bag,
  });
  return { kind: "stored", manifestKey: key, clips: clips.length, partial: manifest.coverage.partial };
}
