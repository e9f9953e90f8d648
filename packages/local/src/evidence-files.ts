/**
 * Stored evidence, where someone at this machine can play and check it: the manifest, clips and
 * track of an `evidence-stored` observation copied from the emulated bucket to the evidence folder.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { ObservationOf } from "@fleet-alerts/core";
import type { CopiedClip } from "./report.js";

/** Copies the manifest, every clip and the track when there is one; resolves with the clips' files. */
export async function copyEvidence(
  s3: S3Client,
  stored: ObservationOf<"evidence-stored">,
  evidenceDir: string,
): Promise<CopiedClip[]> {
  const copied: CopiedClip[] = [];
  const track = stored.track.status === "stored" ? [stored.track.key] : [];
  for (const key of [stored.manifestKey, ...stored.clips.map((clip) => clip.key), ...track]) {
    const object = await s3.send(new GetObjectCommand({ Bucket: stored.bucket, Key: key }));
    const bytes = await (
      object.Body as { transformToByteArray(): Promise<Uint8Array> }
    ).transformToByteArray();
    // The folder stands for the bucket's evidence/ prefix: keep the rest of the key.
    const file = join(evidenceDir, key.replace(/^evidence\//, ""));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, bytes);
    const clip = stored.clips.find((candidate) => candidate.key === key);
    if (clip) copied.push({ file, bytes: clip.bytes, sha256: clip.sha256 });
  }
  return copied;
}

export interface DownloadProgress {
  key: string;
  bytes: number;
  totalBytes?: number;
}

/** At most one progress report per clip every quarter second, and always the last one. */
export function throttled(report: (download: DownloadProgress) => void) {
  const last = new Map<string, number>();
  return (download: DownloadProgress) => {
    const now = Date.now();
    const finished = download.totalBytes !== undefined && download.bytes >= download.totalBytes;
    if (!finished && now - (last.get(download.key) ?? 0) < 250) return;
    last.set(download.key, now);
    report(download);
  };
}
