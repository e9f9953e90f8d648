/**
 * Stored evidence, where someone at this machine can play and check it: an alert's claim pack (the
 * bag under its evidence prefix, clips, track, report and all) copied from the emulated bucket to
 * `<evidence folder>/<claim-...>/`, the bag's own layout. Opening its report.html plays the clips.
 */
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { GetObjectCommand, paginateListObjectsV2, type S3Client } from "@aws-sdk/client-s3";
import { bagFolderName } from "@fleet-alerts/core/evidence";

export interface CopiedBag {
  /** The bag's folder. */
  folder: string;
  /** Its report.html, to open in a browser. */
  report: string;
}

/**
 * Copies every object under the bag's prefix (again: a timestamp that came later is added), each
 * streamed to its file: a clip may be hundreds of megabytes, and the local mode runs beside the
 * emulators that already hold it.
 */
export async function copyBag(
  s3: S3Client,
  stored: { alertId: string; bucket: string; bag: { prefix: string; report: string } },
  evidenceDir: string,
): Promise<CopiedBag> {
  const folder = join(evidenceDir, bagFolderName(stored.alertId));
  for await (const page of paginateListObjectsV2(
    { client: s3 },
    { Bucket: stored.bucket, Prefix: stored.bag.prefix },
  )) {
    for (const { Key: key } of page.Contents ?? []) {
      if (!key) continue;
      const file = join(folder, key.slice(stored.bag.prefix.length));
      await mkdir(dirname(file), { recursive: true });
      const object = await s3.send(new GetObjectCommand({ Bucket: stored.bucket, Key: key }));
      // In Node.js the SDK's body is a Readable.
      await pipeline(object.Body as Readable, createWriteStream(file));
    }
  }
  return { folder, report: join(folder, stored.bag.report.slice(stored.bag.prefix.length)) };
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
