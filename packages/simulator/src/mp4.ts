/**
 * Playback clips as playable MP4 (ISO BMFF), generated while they are sent:
 *
 *   ftyp (isom) | moov [ mvhd, trak [ tkhd, mdia [ mdhd, hdlr, minf [ vmhd, dinf, stbl ] ] ] ]
 *   | mdat [ H.264 samples | padding ]
 *
 * The index (`moov`) comes first, so a browser plays a clip while it downloads. Its sample tables
 * point at the clip's H.264 video (320×240, see video/clip-frames.ts) at the start of `mdat`; the
 * durations add up to exactly the requested minutes. The rest of `mdat` is padding that no table
 * points at, so that a clip is still as large as its bitrate makes it: the payload is
 * `bitrate/8 * seconds` bytes (rounded down), or the video's size when the bitrate is too low to
 * hold it. Padding is produced in 256 KiB chunks from one seeded 64 KiB block with the block
 * number stamped into its first 8 bytes: the same request gives the same bytes, no two blocks of
 * a clip are equal, and a 900 MB clip costs one memcpy per block.
 */
import { createRng } from "./rng.js";
import { FRAME_HEIGHT, FRAME_WIDTH } from "./video/clip-frames.js";
import type { EncodedVideo } from "./video/encoder-output.js";

export interface Mp4Plan {
  /** ftyp + moov + the mdat box header. */
  header: Buffer;
  /** The H.264 samples, first in mdat. */
  video: Uint8Array;
  paddingBytes: number;
  /** Content-Length of the whole file. */
  totalBytes: number;
  /** The seeded block the padding repeats. */
  block: Buffer;
}

export interface Mp4Request {
  video: EncodedVideo;
  bitrateBitsPerSecond: number;
  startMs: number;
  /** Everything that identifies the clip's content: device, channel, start time. */
  contentKey: readonly (string | number)[];
  seed: number;
}

const BLOCK_BYTES = 64 * 1024;
const CHUNK_BYTES = 4 * BLOCK_BYTES;
/** Movie and media time in milliseconds. */
const TIMESCALE = 1000;
/** Seconds from 1904-01-01 (the MP4 epoch) to 1970-01-01. */
const MP4_EPOCH_OFFSET_SECONDS = 2_082_844_800;
const MAX_32BIT_BOX = 0xffff_ffff;
const UNITY_MATRIX = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000];

export function planMp4(request: Mp4Request): Mp4Plan {
  const { video } = request;
  const durationMs = video.sampleDurationsMs.reduce((sum, duration) => sum + duration, 0);
  const payloadBytes = Math.max(
    video.samples.length,
    Math.floor((request.bitrateBitsPerSecond * durationMs) / 8 / TIMESCALE),
  );
  const created = Math.floor(request.startMs / 1000) + MP4_EPOCH_OFFSET_SECONDS;
  const head = Buffer.concat([fileType(), mediaDataHeader(payloadBytes)]);
  // The index's size does not depend on the offset it holds: measure it, then write the real one.
  const videoOffset = head.length + movie(video, created, durationMs, 0).length;
  const header = Buffer.concat([
    fileType(),
    movie(video, created, durationMs, videoOffset),
    mediaDataHeader(payloadBytes),
  ]);
  return {
    header,
    video: video.samples,
    paddingBytes: payloadBytes - video.samples.length,
    totalBytes: header.length + payloadBytes,
    block: seededBlock(request.seed, request.contentKey),
  };
}

/** The file, header first, as a lazy sequence of chunks: nothing is produced before it is pulled. */
export function* mp4Chunks(plan: Mp4Plan): Generator<Uint8Array> {
  yield plan.header;
  yield plan.video;
  let blockNumber = 0;
  for (let offset = 0; offset < plan.paddingBytes; offset += CHUNK_BYTES) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, plan.paddingBytes - offset));
    for (let blockStart = 0; blockStart < chunk.length; blockStart += BLOCK_BYTES) {
      plan.block.copy(chunk, blockStart, 0, Math.min(BLOCK_BYTES, chunk.length - blockStart));
      stampBlockNumber(chunk, blockStart, blockNumber++);
    }
    yield chunk;
  }
}

function stampBlockNumber(chunk: Buffer, at: number, blockNumber: number): void {
  const stamp = Buffer.alloc(8);
  stamp.writeBigUInt64BE(BigInt(blockNumber));
  stamp.copy(chunk, at, 0, Math.min(8, chunk.length - at));
}

function seededBlock(seed: number, contentKey: readonly (string | number)[]): Buffer {
  const rng = createRng(seed, "playback", ...contentKey);
  const block = Buffer.allocUnsafe(BLOCK_BYTES);
  for (let offset = 0; offset < BLOCK_BYTES; offset += 4) block.writeUInt32BE(rng.uint32(), offset);
  return block;
}

// ---- boxes ----

function box(type: string, ...payload: Uint8Array[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, "latin1");
  return Buffer.concat([head, body]);
}

function fullBox(type: string, flags: number, ...payload: Uint8Array[]): Buffer {
  return box(type, uint32(flags & 0xff_ffff), ...payload);
}

function uint32(...values: number[]): Buffer {
  const buffer = Buffer.alloc(4 * values.length);
  for (const [index, value] of values.entries()) buffer.writeUInt32BE(value >>> 0, 4 * index);
  return buffer;
}

function uint16(...values: number[]): Buffer {
  const buffer = Buffer.alloc(2 * values.length);
  for (const [index, value] of values.entries()) buffer.writeUInt16BE(value, 2 * index);
  return buffer;
}

function fileType(): Buffer {
  return box("ftyp", Buffer.from("isom", "latin1"), uint32(0x200), Buffer.from("isomiso2avc1mp41", "latin1"));
}

function movie(video: EncodedVideo, created: number, durationMs: number, videoOffset: number): Buffer {
  const movieHeader = fullBox(
    "mvhd",
    0,
    uint32(created, created, TIMESCALE, durationMs, 0x10000),
    uint16(0x100, 0),
    uint32(0, 0),
    uint32(...UNITY_MATRIX),
    uint32(0, 0, 0, 0, 0, 0),
    uint32(2),
  );
  return box("moov", movieHeader, track(video, created, durationMs, videoOffset));
}

function track(video: EncodedVideo, created: number, durationMs: number, videoOffset: number): Buffer {
  const trackHeader = fullBox(
    "tkhd",
    0x3, // enabled, in movie
    uint32(created, created, 1, 0, durationMs, 0, 0),
    uint16(0, 0, 0, 0),
    uint32(...UNITY_MATRIX),
    uint32(FRAME_WIDTH << 16, FRAME_HEIGHT << 16),
  );
  const mediaHeader = fullBox("mdhd", 0, uint32(created, created, TIMESCALE, durationMs), uint16(0x55c4, 0));
  const handler = fullBox(
    "hdlr",
    0,
    uint32(0),
    Buffer.from("vide", "latin1"),
    uint32(0, 0, 0),
    Buffer.from("VideoHandler\0", "latin1"),
  );
  const dataInformation = box("dinf", fullBox("dref", 0, uint32(1), fullBox("url ", 1)));
  const mediaInformation = box(
    "minf",
    fullBox("vmhd", 1, uint16(0, 0, 0, 0)),
    dataInformation,
    sampleTable(video, videoOffset),
  );
  return box("trak", trackHeader, box("mdia", mediaHeader, handler, mediaInformation));
}

/** All samples in one chunk at `videoOffset`, each shown for its own duration. */
function sampleTable(video: EncodedVideo, videoOffset: number): Buffer {
  const count = video.sampleSizes.length;
  const durationRuns = runLengths(video.sampleDurationsMs);
  return box(
    "stbl",
    video.sampleDescription,
    fullBox(
      "stts",
      0,
      uint32(durationRuns.length),
      ...durationRuns.map(([run, duration]) => uint32(run, duration)),
    ),
    fullBox("stss", 0, uint32(video.syncSamples.length, ...video.syncSamples.map((index) => index + 1))),
    fullBox("stsc", 0, uint32(1, 1, count, 1)),
    fullBox("stsz", 0, uint32(0, count, ...video.sampleSizes)),
    fullBox("stco", 0, uint32(1, videoOffset)),
  );
}

/** [count, value] for each run of equal values. */
function runLengths(values: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const value of values) {
    const last = runs.at(-1);
    if (last && last[1] === value) last[0]++;
    else runs.push([1, value]);
  }
  return runs;
}

/** The mdat header alone: 8 bytes, or 16 with the 64-bit largesize when the box exceeds 2^32-1. */
function mediaDataHeader(payloadBytes: number): Buffer {
  if (8 + payloadBytes <= MAX_32BIT_BOX) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + payloadBytes);
    head.write("mdat", 4, "latin1");
    return head;
  }
  const head = Buffer.alloc(16);
  head.writeUInt32BE(1);
  head.write("mdat", 4, "latin1");
  head.writeBigUInt64BE(BigInt(16 + payloadBytes), 8);
  return head;
}
