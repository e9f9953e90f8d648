import { announceOnce } from "./announce-once.js";
import { evidenceAnnouncement } from "./announcement.js";
import { BAG_FILES } from "./bag/bag-layout.js";
import { type SettledSet, writeClaimPack } from "./claim-pack.js";
import type { EvidenceDependencies, EvidenceSettings } from "./collect.js";
import { alertOf, type EvidenceJob } from "./job.js";
import { type EvidenceManifest, footageOf, isClaimPackManifest, listedKeys } from "./manifest.js";
import { stampClaimPack, type TimestampOutcomeKind } from "./timestamping.js";
import type { TrackGeoJson } from "./track-geojson.js";

/**
 * The claim pack around a settled set, then its timestamp: the bag is written unless its tag
 * manifest (its last file) is there already.
 */
export async function packAndStamp(
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
 * (none for a stale alert; announce-once.ts).
 */
export async function finish(
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
    evidenceAnnouncement(
      job,
      status === "unavailable"
        ? { status, ...overwrittenOf(stored.manifest) }
        : { status, bucket: settings.evidenceBucket, ...stored },
      // Only for an alert whose messages carried the link: its grant exists, so the link opens.
      job.incidentLink ? deps.incidentLink?.(job.alertId) : undefined,
    ),
    deps,
  );
}

function overwrittenOf(manifest: EvidenceManifest) {
  const footage = isClaimPackManifest(manifest) ? footageOf(manifest) : undefined;
  if (footage?.outcome !== "overwritten") return {};
  const { outcome, ...overwritten } = footage;
  return { overwritten };
}
