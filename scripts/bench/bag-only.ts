/**
 * The claim pack's share of an alert's evidence time, in a process of its own: the bag's tag files
 * and report written around an evidence set already stored (the set the evidence benchmark's worker
 * stored, or a small one), exactly as the evidence function writes them. No clip is read: their
 * digests come from the custody record, so neither time nor memory should grow with the clips.
 * `tsx bag-only.ts <s3 endpoint> <bucket> <prefix> <job.json> <runs>`; the last line printed is
 * JSON: the median time per bag, and the process's resident memory before the first bag and at its
 * peak.
 */
import { readFile } from "node:fs/promises";
import {
  evidenceJobSchema,
  isClaimPackManifest,
  manifestKey,
  S3EvidenceStore,
  type SettledSet,
  writeClaimPack,
} from "@fleet-alerts/core/evidence";
import { emulatedS3 } from "./emulated-s3.js";
import { peakRssBytes } from "./peak-rss.mjs";

const [endpoint, bucket, prefix, jobFile, runs] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const s3 = emulatedS3(endpoint);
const store = new S3EvidenceStore(s3, { evidence: bucket, staging: bucket });
const job = evidenceJobSchema.parse(JSON.parse(await readFile(jobFile, "utf8")));
const read = await store.readManifest(manifestKey(prefix));
if (read === undefined || !isClaimPackManifest(read.manifest))
  throw new Error(`no claim-pack manifest under ${prefix}`);
const set: SettledSet = { manifest: read.manifest, stored: read.stored };
const settings = { sourceOrganization: "bench", fleetTimeZone: "Europe/Berlin", timestamped: false };

const rssBeforeBytes = process.memoryUsage().rss;
const times: number[] = [];
for (let run = 0; run < Number(runs); run++) {
  const started = performance.now();
  // The track is read back from the bucket, as a replay does: the slower of the two paths.
  await writeClaimPack(job, prefix, set, settings, { store });
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    medianMs: times[Math.floor(times.length / 2)],
    rssBeforeBytes,
    peakRssBytes: await peakRssBytes(),
    clipBytes: set.manifest.clips.reduce((total, clip) => total + clip.bytes, 0),
  }),
);
s3.destroy();
