import { createHash } from "node:crypto";
import { BAG_FILES } from "./bag/bag-layout.js";
import { type BagEntry, bagDeclaration, bagInfo, manifestOf } from "./bag/format.js";
import { claimReportModel, type ReportSettings } from "./claim-report-model.js";
import type { EvidenceJob } from "./job.js";
import type { ClaimPackManifest } from "./manifest.js";
import type { EvidenceSink, StoredObject } from "./ports.js";
import { renderClaimReport } from "./report/claim-report.js";
import { type TrackGeoJson, trackGeoJsonSchema } from "./track-geojson.js";

/** A settled evidence set's custody record, as stored (the tag manifest lists its bytes). */
export interface SettledSet {
  manifest: ClaimPackManifest;
  stored: StoredObject;
}

/**
 * Writes the claim pack's tag files around a settled evidence set: its payload (clips, event,
 * track) and custody record are stored already, under the prefix that is the bag's root. Every
 * file is derived from the custody record and the stored track, so a replay after a crash writes
 * the same bytes; the tag manifest goes last, so its presence means the bag is whole. No clip is
 * read: their digests are the ones computed while they streamed in. Resolves with the tag
 * manifest's bytes, for the timestamp.
 */
export async function writeClaimPack(
  job: EvidenceJob,
  prefix: string,
  set: SettledSet,
  settings: ReportSettings,
  deps: { store: Pick<EvidenceSink, "putObject" | "readObject"> },
  track?: TrackGeoJson,
): Promise<Uint8Array> {
  const { manifest } = set;
  const inBag = (key: string) => key.slice(prefix.length);
  const payload = payloadEntries(manifest, inBag);
  const put = async (file: string, body: string, contentType: string): Promise<BagEntry> => {
    const stored = await deps.store.putObject(`${prefix}${file}`, body, contentType);
    return { path: file, bytes: stored.bytes, sha256: stored.sha256Hex };
  };
  const storedTrack =
    manifest.track.status === "stored" ? (track ?? (await readTrack(manifest, deps))) : undefined;
  const tagFiles = await Promise.all([
    put(BAG_FILES.declaration, bagDeclaration(), TEXT),
    put(
      BAG_FILES.info,
      bagInfo(
        {
          sourceOrganization: settings.sourceOrganization,
          externalIdentifier: job.alertId,
          externalDescription: `${job.alert?.eventName ?? "event"} of device ${job.deviceid} at ${job.eventtime}, alert ${job.alertId}`,
          baggingMs: Date.parse(manifest.createdAt),
          softwareAgent: `${manifest.software.name} ${manifest.software.version}`,
        },
        payload,
      ),
      TEXT,
    ),
    put(BAG_FILES.payloadManifest, manifestOf(payload), TEXT),
    put(
      BAG_FILES.report,
      renderClaimReport(claimReportModel(job, manifest, storedTrack, prefix, settings)),
      "text/html; charset=utf-8",
    ),
  ]);
  const custody = { path: BAG_FILES.custodyRecord, bytes: set.stored.bytes, sha256: set.stored.sha256Hex };
  const tagManifest = manifestOf([...tagFiles, custody]);
  await deps.store.putObject(`${prefix}${BAG_FILES.tagManifest}`, tagManifest, TEXT);
  return Buffer.from(tagManifest, "utf8");
}

const TEXT = "text/plain; charset=utf-8";

/** The payload as the custody record lists it: every digest computed when the file was stored. */
function payloadEntries(manifest: ClaimPackManifest, inBag: (key: string) => string): BagEntry[] {
  const track = manifest.track.status === "stored" ? [manifest.track] : [];
  return [...manifest.clips, manifest.eventFile, ...track].map((file) => ({
    path: inBag(file.key),
    bytes: file.bytes,
    sha256: file.sha256,
  }));
}

/** The stored track, for the report's map and chart (a replay has it only in the bucket). */
async function readTrack(
  manifest: ClaimPackManifest,
  deps: { store: Pick<EvidenceSink, "readObject"> },
): Promise<TrackGeoJson | undefined> {
  if (manifest.track.status !== "stored") return undefined;
  const bytes = await deps.store.readObject(manifest.track.key);
  if (!bytes) return undefined;
  // The manifest's digest says whether these are the bytes it listed; a report drawn from others would mislead.
  if (createHash("sha256").update(bytes).digest("hex") !== manifest.track.sha256) return undefined;
  return trackGeoJsonSchema.parse(JSON.parse(Buffer.from(bytes).toString("utf8")));
}
