import { formatPlaybackTimestamp } from "../devicecloud/playback-request.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { EvidenceDependencies, EvidenceSettings } from "./collect.js";
import type { EvidenceJob } from "./job.js";
import { clipKey } from "./layout.js";
import type { CurrentManifest } from "./manifest.js";
import { playbackSegments } from "./window.js";

type ManifestClip = CurrentManifest["clips"][number];

/**
 * Every clip of the recorded span, per channel the device has and per playback segment, streamed
 * into the store under `data/`; and the channels asked for that the device does not have. A clip
 * already stored (a crash after it) is reused with the request time its metadata kept.
 */
export async function collectClips(
  job: EvidenceJob,
  prefix: string,
  recordedSpan: { startMs: number; endMs: number },
  settings: Pick<EvidenceSettings, "utcOffsetMinutes">,
  deps: EvidenceDependencies,
): Promise<{ clips: ManifestClip[]; skipped: number[] }> {
  const { channels, skipped } = await channelsOnDevice(job, deps);
  const segments = playbackSegments(recordedSpan);
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
      const requestedAt = new Date(deps.now()).toISOString();
      const stored =
        (await deps.store.storedClip(clip)) ?? (await fetchClip(clip, request, requestedAt, job, deps));
      clips.push({
        key: clip,
        channel,
        part: segment.index,
        startMs: segment.startMs,
        durationMinutes: segment.durationMinutes,
        bytes: stored.bytes,
        sha256: stored.sha256Hex,
        ...(stored.durationMs !== undefined && { mp4DurationMs: stored.durationMs }),
        requestedAt: stored.requestedAt ?? requestedAt,
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
  return { clips, skipped };
}

/** Downloads one clip into the store, reporting progress when someone listens. */
async function fetchClip(
  key: string,
  request: Parameters<DeviceCloud["downloadPlayback"]>[0],
  requestedAt: string,
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
    // The chain of custody: a replay that finds the clip stored reports when it was asked for.
    "requested-at": requestedAt,
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
  deps: Pick<EvidenceDependencies, "client">,
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
