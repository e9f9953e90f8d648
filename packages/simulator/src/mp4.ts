/**
 * Playback clips as structurally valid MP4 (ISO BMFF), generated while they are sent:
 *
 *   ftyp (isom) | moov [ mvhd, trak [ tkhd, mdia [ mdhd, hdlr, minf [ vmhd, dinf, stbl ] ] ] ] | mdat
 *
 * Only the header (~700 bytes) is built in memory. The mdat payload is `bitrate/8 * seconds`
 * bytes (rounded down), produced in 256 KiB chunks from one seeded 64 KiB block with the block
 * number stamped into its first 8 bytes: the same request gives the same bytes, no two blocks of
 * a clip are equal, and generation costs one memcpy per block. The track has no sample tables
 * (the payload is not real video); the boxes, their sizes and the durations are what clients check.
 */
import { createRng } from "./rng.js";

export interface Mp4Plan {
  /** ftyp + moov + the mdat box header. */
  header: Buffer;
  payloadBytes: number;
  /** Content-Length of the whole file. */
  totalBytes: number;
  /** The seeded block the payload repeats. */
  block: Buffer;
}

export interface Mp4Request {
  durationMinutes: number;
  bitrateBitsPerSecond: number;
  startMs: number;
  /** Everything that identifies the clip's content: seed, device, channel, start time. */
  contentKey: readonly (string | number)[];
  seed: number;
}

const BLOCK_BYTES = 64 * 1024;
const CHUNK_BYTES = 4 * BLOCK_BYTES;
const MOVIE_TIMESCALE = 1000;
/** Seconds from 1904-01-01 (the MP4 epoch) to 1970-01-01. */
const MP4_EPOCH_OFFSET_SECONDS = 2_082_844_800;
const MAX_32BIT_BOX = 0xffff_ffff;
const UNITY_MATRIX = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000];

export function planMp4(request: Mp4Request): Mp4Plan {
  const durationMs = request.durationMinutes * 60_000;
  const payloadBytes = Math.floor((request.bitrateBitsPerSecond * request.durationMinutes * 60) / 8);
  const created = Math.floor(request.startMs / 1000) + MP4_EPOCH_OFFSET_SECONDS;
  const header = Buffer.concat([fileType(), movie(created, durationMs), mediaDataHeader(payloadBytes)]);
  return {
    header,
    payloadBytes,
    totalBytes: header.length + payloadBytes,
    block: seededBlock(request.seed, request.contentKey),
  };
}

/** The file, header first, as a lazy sequence of chunks: nothing is produced before it is pulled. */
export function* mp4Chunks(plan: Mp4Plan): Generator<Buffer> {
  yield plan.header;
  let blockNumber = 0;
  for (let offset = 0; offset < plan.payloadBytes; offset += CHUNK_BYTES) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, plan.payloadBytes - offset));
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

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, "latin1");
  return Buffer.concat([head, body]);
}

function fullBox(type: string, flags: number, ...payload: Buffer[]): Buffer {
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
  return box("ftyp", Buffer.from("isom", "latin1"), uint32(0x200), Buffer.from("isomiso2mp41", "latin1"));
}

function movie(created: number, durationMs: number): Buffer {
  const movieHeader = fullBox(
    "mvhd",
    0,
    uint32(created, created, MOVIE_TIMESCALE, durationMs, 0x10000),
    uint16(0x100, 0),
    uint32(0, 0),
    uint32(...UNITY_MATRIX),
    uint32(0, 0, 0, 0, 0, 0),
    uint32(2),
  );
  return box("moov", movieHeader, track(created, durationMs));
}

function track(created: number, durationMs: number): Buffer {
  const trackHeader = fullBox(
    "tkhd",
    0x3, // enabled, in movie
    uint32(created, created, 1, 0, durationMs, 0, 0),
    uint16(0, 0, 0, 0),
    uint32(...UNITY_MATRIX),
    uint32(1280 << 16, 720 << 16),
  );
  const mediaHeader = fullBox(
    "mdhd",
    0,
    uint32(created, created, MOVIE_TIMESCALE, durationMs),
    uint16(0x55c4, 0),
  );
  const handler = fullBox(
    "hdlr",
    0,
    uint32(0),
    Buffer.from("vide", "latin1"),
    uint32(0, 0, 0),
    Buffer.from("VideoHandler\0", "latin1"),
  );
  const dataInformation = box("dinf", fullBox("dref", 0, uint32(1), fullBox("url ", 1)));
  const emptyTable = (type: string) => fullBox(type, 0, uint32(0));
  const sampleTable = box(
    "stbl",
    emptyTable("stsd"),
    emptyTable("stts"),
    emptyTable("stsc"),
    fullBox("stsz", 0, uint32(0, 0)),
    emptyTable("stco"),
  );
  const mediaInformation = box("minf", fullBox("vmhd", 1, uint16(0, 0, 0, 0)), dataInformation, sampleTable);
  return box("trak", trackHeader, box("mdia", mediaHeader, handler, mediaInformation));
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
