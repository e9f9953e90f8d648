import type { AlertPublisher, AlertRecords } from "../alerts/ports.js";
import { SQS_MAX_DELAY_SECONDS } from "../aws-limits.js";
import { awsJson } from "../aws-text.js";
import { formatPlaybackTimestamp } from "../devicecloud/playback-request.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { Observer } from "../observer.js";
import { type JobQueue, sendEvery } from "../queue/ports.js";
import { UNROUTED_RECIPIENT } from "../routing/route.js";
import { evidenceAnnouncement } from "./announcement.js";
import { BAG_FILES } from "./bag/bag-layout.js";
import { type SettledSet, writeClaimPack } from "./claim-pack.js";
import { collectClips } from "./collect-clips.js";
import { type EvidenceJob, jobIds } from "./job.js";
import { eventKey, evidencePrefix, manifestKey } from "./layout.js";
import { type CurrentManifest, type EvidenceManifest, listedKeys } from "./manifest.js";
import type { EvidenceSink } from "./ports.js";
import type { TsaSettings } from "./timestamp/index.js";
import { stampClaimPack, type TimestampOutcomeKind } from "./timestamping.js";
import { collectTrack, type TrackSettings } from "./track.js";
import type { TrackGeoJson } from "./track-geojson.js";
import { coverage, evidenceWindow, recordDaysTouched } from "./window.js";

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
  observer: Observer;
  now: () => number;
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
    if (existing.manifest.version === 3)
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

  const eventMs = Date.parse(job.eventtime);
  const window = evidenceWindow(eventMs, job.secondsBefore, job.secondsAfter);
  // Two days at most, of 1,440 values each: the job's window is at most an hour each side (job.ts).
  const maps = await Promise.all(
    recordDaysTouched(window, settings.utcOffsetMinutes).map(async (dateSeconds) => ({
      dateSeconds,
      map: await deps.client.dailyRecordMap({ deviceid: job.deviceid, date: dateSeconds }),
    })),
  );
  const recorded = coverage(window, maps);
  if (!recorded.recordedSpan && deps.now() - eventMs <= settings.giveUpAfterMs) {
    // The device may be offline or not synced yet: look again later, waiting longer each time.
    const retryInSeconds = Math.min(SQS_MAX_DELAY_SECONDS, settings.retryDelaySeconds * 2 ** job.attempt);
    await sendEvery(deps.requeue, [
      { body: awsJson({ ...job, attempt: job.attempt + 1 }), delaySeconds: retryInSeconds },
    ]);
    deps.observer.observe({ type: "evidence-waiting", ...ids, retryInSeconds, attempt: job.attempt });
    return { kind: "not-recorded-yet", retryInSeconds };
  }

  // Given up on video, the bag still holds the event, the track and a report saying why there is none.
  const { clips, skipped } = recorded.recordedSpan
    ? await collectClips(job, prefix, recorded.recordedSpan, settings, deps)
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
    version: 3,
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
    deps.observer.observe({ type: "evidence-unavailable", ...ids, bucket: settings.evidenceBucket, bag });
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

/**
 * The claim pack around a settled set, then its timestamp: the bag is written unless its tag
 * manifest (its last file) is there already.
 */
async function packAndStamp(
  job: EvidenceJob,
  prefix: string,
  set: SettledSet,
  settings: EvidenceSettings,
  deps: EvidenceDependencies,
  track?: TrackGeoJson,
): Promise<TimestampOutcomeKind> {
  const { claimPack } = settings;
  const tagManifest =
    (await deps.store.readObject(`${prefix}${BAG_FILES.tagManifest}`)) ??
    (await writeClaimPack(
      job,
      prefix,
      set,
      {
        sourceOrganization: claimPack.sourceOrganization,
        fleetTimeZone: claimPack.fleetTimeZone,
        timestamped: claimPack.tsa !== undefined,
      },
      deps,
      track,
    ));
  return stampClaimPack(job, prefix, tagManifest, claimPack.tsa, deps);
}

/**
 * Marks the alert record and sends "evidence ready" once, whichever delivery of the job gets here
 * (none for a stale alert).
 */
async function finish(
  job: EvidenceJob,
  settings: EvidenceSettings,
  deps: EvidenceDependencies,
  stored: { manifestKey: string; manifest: EvidenceManifest },
): Promise<void> {
  // A set given up on video is a bag too (the event, the track, the report saying why): its keys
  // are kept, so that it can be packed for a claim like any other.
  const status = stored.manifest.clips.length === 0 ? "unavailable" : "stored";
  await deps.alerts.setEvidence(alertOf(job), {
    status,
    keys: [stored.manifestKey, ...listedKeys(stored.manifest)],
  });
  await announceOnce(
    job,
    deps,
    evidenceAnnouncement(
      job,
      status === "unavailable" ? { status } : { status, bucket: settings.evidenceBucket, ...stored },
      // Only for an alert whose messages carried the link: its grant exists, so the link opens.
      job.incidentLink ? deps.incidentLink?.(job.alertId) : undefined,
    ),
  );
}

async function announceOnce(
  job: EvidenceJob,
  deps: EvidenceDependencies,
  message: ReturnType<typeof evidenceAnnouncement>,
) {
  const key = alertOf(job);
  const record = await deps.alerts.get(key.account, key.serialno, key.ruleId);
  // A stale alert was sent to no one, and neither is its evidence: the stale summary lists it, and
  // its incident page shows the evidence once stored. Footage asked for by hand goes to no group
  // either: the requester has its link, and `evidence request --wait` tells them it is there.
  if (record?.status === "stale" || job.request) return;
  if (!(await deps.alerts.claimEvidenceAnnouncement(key, deps.now()))) return;
  // To the people the alert itself reached by email, one message each (routing/route.ts); an alert
  // routed before routing existed went to every subscriber, now the ops' `unrouted` recipient.
  const to = record?.route?.email ?? [UNROUTED_RECIPIENT];
  // Held by every group that selects it: their quiet-hour summary tells of it, not a notice now.
  if (to.length === 0) return;
  const [outcome] = await deps.publisher.publish([{ alertId: `${job.alertId}:evidence`, message, to }]);
  if (!outcome?.ok)
    throw new Error(
      `evidence announcement not published: ${outcome && !outcome.ok ? outcome.reason : "no outcome"}`,
    );
}

/** The alert record a job belongs to. */
export function alertOf(job: Pick<EvidenceJob, "account" | "serialno" | "ruleId">) {
  return { account: job.account, serialno: BigInt(job.serialno), ruleId: job.ruleId };
}
