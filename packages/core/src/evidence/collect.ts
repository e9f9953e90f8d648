import type { AlertPublisher, AlertRecords } from "../alerts/ports.js";
import { SQS_MAX_DELAY_SECONDS } from "../aws-limits.js";
import { formatPlaybackTimestamp } from "../devicecloud/playback.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { Observer } from "../observer.js";
import type { JobQueue } from "../queue/ports.js";
import { evidenceAnnouncement } from "./announcement.js";
import type { EvidenceJob } from "./job.js";
import { clipKey, evidencePrefix, manifestKey } from "./layout.js";
import { type CurrentManifest, type EvidenceManifest, listedKeys, type ManifestClip } from "./manifest.js";
import type { EvidenceSink } from "./ports.js";
import { collectTrack, type TrackSettings } from "./track.js";
import { coverage, evidenceWindow, playbackSegments, recordDaysTouched } from "./window.js";

export interface EvidenceSettings {
  /** The fleet's UTC offset, minutes east: how playback timestamps and record days are written. */
  utcOffsetMinutes: number;
  /** After this long since the event, footage still not recorded is given up as unavailable. */
  giveUpAfterMs: number;
  /** First wait before looking again for footage not recorded yet; doubles each time (SQS: 900 s at most). */
  retryDelaySeconds: number;
  evidenceBucket: string;
  software: { name: string; version: string };
  /** The job's account's /api/gps, for `track.geojson`. */
  track: TrackSettings;
}

export interface EvidenceDependencies {
  client: DeviceCloud;
  store: EvidenceSink;
  alerts: AlertRecords;
  publisher: AlertPublisher;
  /** The evidence queue itself, to come back later for footage not recorded yet. */
  requeue: JobQueue;
  observer: Observer;
  now: () => number;
  /** Told how a download is going (the local mode shows it); `totalBytes` when the service said. */
  progress?: (download: { key: string; bytes: number; totalBytes?: number }) => void;
}

export type EvidenceOutcome =
  | { kind: "stored"; manifestKey: string; clips: number; partial: boolean }
  | { kind: "already-stored"; manifestKey: string }
  | { kind: "not-recorded-yet"; retryInSeconds: number }
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
  const ids = {
    account: job.account,
    alertId: job.alertId,
    serialno: job.serialno,
    deviceid: job.deviceid,
    rule: job.ruleId,
  };
  const existing = await deps.store.readManifest(key);
  if (existing) {
    await finish(job, settings, deps, { manifestKey: key, manifest: existing });
    return { kind: "already-stored", manifestKey: key };
  }

  const eventMs = Date.parse(job.eventtime);
  const window = evidenceWindow(eventMs, job.secondsBefore, job.secondsAfter);
  const maps = await Promise.all(
    recordDaysTouched(window, settings.utcOffsetMinutes).map(async (dateSeconds) => ({
      dateSeconds,
      map: await deps.client.dailyRecordMap({ deviceid: job.deviceid, date: dateSeconds }),
    })),
  );
  const recorded = coverage(window, maps);
  if (!recorded.recordedSpan) {
    if (deps.now() - eventMs > settings.giveUpAfterMs) {
      await deps.alerts.setEvidence(alertOf(job), { status: "unavailable" });
      await announceOnce(job, deps, evidenceAnnouncement(job, { status: "unavailable" }));
      deps.observer.observe({ type: "evidence-unavailable", ...ids });
      return { kind: "unavailable" };
    }
    // The device may be offline or not synced yet: look again later, waiting longer each time.
    const retryInSeconds = Math.min(SQS_MAX_DELAY_SECONDS, settings.retryDelaySeconds * 2 ** job.attempt);
    await deps.requeue.send([
      { body: JSON.stringify({ ...job, attempt: job.attempt + 1 }), delaySeconds: retryInSeconds },
    ]);
    deps.observer.observe({ type: "evidence-waiting", ...ids, retryInSeconds, attempt: job.attempt });
    return { kind: "not-recorded-yet", retryInSeconds };
  }

  const segments = playbackSegments(recorded.recordedSpan);
  const { channels, skipped } = await channelsOnDevice(job, deps);
  const clips: ManifestClip[] = [];
  for (const channel of channels) {
    for (const segment of segments) {
      const clip = clipKey(prefix, channel, segment.index, segments.length);
      const request = {
        deviceid: job.deviceid,
        channel,
        durationMinutes: segment.durationMinutes,
        start: new Date(segment.startMs),
        utcOffset: settings.utcOffsetMinutes,
      };
      const playback = deps.client.playbackUrl(request);
      const stored = (await deps.store.storedClip(clip)) ?? (await fetchClip(clip, request, job, deps));
      clips.push({
        key: clip,
        channel,
        part: segment.index,
        startMs: segment.startMs,
        durationMinutes: segment.durationMinutes,
        bytes: stored.bytes,
        sha256: stored.sha256Hex,
        ...(stored.durationMs !== undefined && { mp4DurationMs: stored.durationMs }),
        fetchedAt: new Date(deps.now()).toISOString(),
        playback: {
          url: playback.redactedUrl,
          timestamp: formatPlaybackTimestamp(request.start, settings.utcOffsetMinutes),
          channel,
          durationMinutes: segment.durationMinutes,
        },
      });
    }
  }
  // After the clips, so that a retried download does not ask for the track again, and the track
  // has had the longest time to reach the service.
  const { track, speed } = await collectTrack(job, window, prefix, settings.track, deps);
  const manifest: CurrentManifest = {
    version: 2,
    status: "complete",
    alert: { alertId: job.alertId, account: job.account, ruleId: job.ruleId, severity: job.severity },
    event: job.event,
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
    track,
    speed,
    software: settings.software,
    createdAt: new Date(deps.now()).toISOString(),
  };
  await deps.store.putManifest(key, manifest);
  await finish(job, settings, deps, { manifestKey: key, manifest });
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
  });
  return { kind: "stored", manifestKey: key, clips: clips.length, partial: manifest.coverage.partial };
}

/** Downloads one clip into the store, reporting progress when someone listens. */
async function fetchClip(
  key: string,
  request: Parameters<DeviceCloud["downloadPlayback"]>[0],
  job: EvidenceJob,
  deps: EvidenceDependencies,
) {
  const download = await deps.client.downloadPlayback(request);
  const { progress } = deps;
  const metadata = {
    deviceid: job.deviceid,
    serialno: job.serialno,
    channel: String(request.channel),
    "alert-id": job.alertId,
  };
  return deps.store.storeClip(
    key,
    download.body,
    metadata,
    progress &&
      ((bytes) =>
        progress({
          key,
          bytes,
          ...(download.contentLength !== undefined && { totalBytes: download.contentLength }),
        })),
  );
}

/**
 * The rule's channels that the device has: a rule asks for channels 1 and 2 fleet-wide, but a
 * one-camera device answers 400 for channel 2. The channel count comes from the device list; when
 * that cannot be read, every requested channel is tried.
 */
async function channelsOnDevice(
  job: EvidenceJob,
  deps: EvidenceDependencies,
): Promise<{ channels: number[]; skipped: number[] }> {
  const device = await deps.client
    .allDevices()
    .then((devices) => devices.find((candidate) => candidate.deviceid === job.deviceid))
    .catch(() => undefined);
  if (!device || device.channel < 1) return { channels: job.channels, skipped: [] };
  return {
    channels: job.channels.filter((channel) => channel <= device.channel),
    skipped: job.channels.filter((channel) => channel > device.channel),
  };
}

/** Marks the alert record and sends "evidence ready" once, whichever delivery of the job gets here. */
async function finish(
  job: EvidenceJob,
  settings: EvidenceSettings,
  deps: EvidenceDependencies,
  stored: { manifestKey: string; manifest: EvidenceManifest },
): Promise<void> {
  await deps.alerts.setEvidence(alertOf(job), {
    status: "stored",
    keys: [stored.manifestKey, ...listedKeys(stored.manifest)],
  });
  await announceOnce(
    job,
    deps,
    evidenceAnnouncement(job, { status: "stored", bucket: settings.evidenceBucket, ...stored }),
  );
}

async function announceOnce(
  job: EvidenceJob,
  deps: EvidenceDependencies,
  message: ReturnType<typeof evidenceAnnouncement>,
) {
  if (!(await deps.alerts.claimEvidenceAnnouncement(alertOf(job), deps.now()))) return;
  const [outcome] = await deps.publisher.publish([{ alertId: `${job.alertId}:evidence`, message }]);
  if (!outcome?.ok)
    throw new Error(
      `evidence announcement not published: ${outcome && !outcome.ok ? outcome.reason : "no outcome"}`,
    );
}

/** The alert record a job belongs to. */
export function alertOf(job: Pick<EvidenceJob, "account" | "serialno" | "ruleId">) {
  return { account: job.account, serialno: BigInt(job.serialno), ruleId: job.ruleId };
}
