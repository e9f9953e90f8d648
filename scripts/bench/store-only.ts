/**
 * The evidence benchmark's other baseline, in a process of its own: the worker's S3 half alone. A
 * clip generated in memory (the simulator's MP4, same size) goes through the same S3EvidenceStore
 * (verify, stage, copy) with no download. `tsx store-only.ts <s3 endpoint> <staging> <evidence>
 * <minutes> <bit/s> <key>`; the last line printed is JSON with the bytes stored and the seconds
 * taken.
 */
import { Readable } from "node:stream";
import { S3EvidenceStore } from "@fleet-alerts/core/evidence";
import { mp4Chunks, planMp4 } from "../../packages/simulator/src/mp4.js";
import { clipVideos } from "../../packages/simulator/src/video/clip-videos.js";
import { emulatedS3 } from "./emulated-s3.js";

const [endpoint, staging, evidence, minutes, bitrate, key] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const s3 = emulatedS3(endpoint);
const startMs = Date.now();
// Encoded before the clock starts: the baseline measures the store, not the simulator's encoder.
const video = await clipVideos.video({
  deviceid: "store-only",
  channel: 1,
  startMs,
  durationMinutes: Number(minutes),
  utcOffsetMinutes: 0,
});
const plan = planMp4({
  video,
  bitrateBitsPerSecond: Number(bitrate),
  startMs,
  contentKey: ["store-only"],
  seed: 1,
});
const started = performance.now();
const stored = await new S3EvidenceStore(s3, { evidence, staging }).storeClip(
  key,
  Readable.from(mp4Chunks(plan)),
  {},
);
console.log(JSON.stringify({ bytes: stored.bytes, seconds: (performance.now() - started) / 1000 }));
s3.destroy();
