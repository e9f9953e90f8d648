/**
 * Reads the MP4 that h264-mp4-encoder writes (ftyp, free, mdat, moov: the index at the end, one
 * sample per chunk, no sync-sample table) back into its parts: the sample description and the
 * H.264 samples. The simulator writes its own file around them, with the index first (so that a
 * browser can play a clip while it downloads), the durations it wants, and room after the video.
 */

/** One clip's H.264 video, ready to be put into an MP4 file. */
export interface EncodedVideo {
  /** The encoder's whole `stsd` box: one `avc1` sample entry (size, SPS and PPS in `avcC`). */
  sampleDescription: Uint8Array;
  /** Every sample (a frame, as length-prefixed NAL units), back to back in decoding order. */
  samples: Uint8Array;
  sampleSizes: number[];
  /** Indices of the samples that are IDR frames, where a player can start decoding. */
  syncSamples: number[];
  /** How long each sample is shown, in ms; together the clip's duration. */
  sampleDurationsMs: number[];
}

interface Box {
  type: string;
  /** Where the body starts. */
  bodyStart: number;
  end: number;
}

const IDR_NAL_TYPE = 5;
/** An `avc1` sample entry's fixed fields before its child boxes (ISO/IEC 14496-12 VisualSampleEntry). */
const VISUAL_SAMPLE_ENTRY_BYTES = 78;

export function readEncoderOutput(mp4: Uint8Array): Omit<EncodedVideo, "sampleDurationsMs"> {
  const bytes = Buffer.from(mp4.buffer, mp4.byteOffset, mp4.byteLength);
  const sampleTable = path(bytes, ["moov", "trak", "mdia", "minf", "stbl"]);
  const stsd = child(bytes, sampleTable, "stsd");
  const sampleSizes = readSampleSizes(bytes, child(bytes, sampleTable, "stsz"));
  const offsets = readSampleOffsets(
    bytes,
    child(bytes, sampleTable, "stsc"),
    child(bytes, sampleTable, "stco"),
    sampleSizes,
  );
  const samples = Buffer.concat(
    offsets.map((offset, index) => bytes.subarray(offset, offset + (sampleSizes[index] as number))),
  );
  const lengthBytes = nalLengthBytes(bytes, stsd);
  const syncSamples: number[] = [];
  let at = 0;
  for (const [index, size] of sampleSizes.entries()) {
    if (hasIdrNal(samples.subarray(at, at + size), lengthBytes)) syncSamples.push(index);
    at += size;
  }
  return {
    sampleDescription: bytes.subarray(stsd.bodyStart - 8, stsd.end),
    samples,
    sampleSizes,
    syncSamples,
  };
}

function readSampleSizes(bytes: Buffer, stsz: Box): number[] {
  const uniformSize = bytes.readUInt32BE(stsz.bodyStart + 4);
  const count = bytes.readUInt32BE(stsz.bodyStart + 8);
  return Array.from({ length: count }, (_, index) =>
    uniformSize === 0 ? bytes.readUInt32BE(stsz.bodyStart + 12 + 4 * index) : uniformSize,
  );
}

/** File offsets of the samples, from the sample-to-chunk runs and the chunk offsets. */
function readSampleOffsets(bytes: Buffer, stsc: Box, stco: Box, sampleSizes: number[]): number[] {
  const chunkCount = bytes.readUInt32BE(stco.bodyStart + 4);
  const chunkOffsets = Array.from({ length: chunkCount }, (_, index) =>
    bytes.readUInt32BE(stco.bodyStart + 8 + 4 * index),
  );
  const runCount = bytes.readUInt32BE(stsc.bodyStart + 4);
  const runs = Array.from({ length: runCount }, (_, index) => ({
    firstChunk: bytes.readUInt32BE(stsc.bodyStart + 8 + 12 * index),
    samplesPerChunk: bytes.readUInt32BE(stsc.bodyStart + 12 + 12 * index),
  }));
  const offsets: number[] = [];
  for (const [chunkIndex, chunkOffset] of chunkOffsets.entries()) {
    const run = runs.findLast((candidate) => candidate.firstChunk <= chunkIndex + 1);
    let at = chunkOffset;
    for (let sample = 0; sample < (run?.samplesPerChunk ?? 0); sample++) {
      offsets.push(at);
      at += sampleSizes[offsets.length - 1] ?? 0;
    }
  }
  if (offsets.length !== sampleSizes.length) {
    throw new Error(`the encoder's MP4 maps ${offsets.length} samples of ${sampleSizes.length}`);
  }
  return offsets;
}

/** The size of the NAL unit length prefixes, from `avcC` (its lengthSizeMinusOne field). */
function nalLengthBytes(bytes: Buffer, stsd: Box): number {
  const avc1 = child(bytes, { type: "stsd", bodyStart: stsd.bodyStart + 8, end: stsd.end }, "avc1");
  const avcC = child(
    bytes,
    { type: "avc1", bodyStart: avc1.bodyStart + VISUAL_SAMPLE_ENTRY_BYTES, end: avc1.end },
    "avcC",
  );
  return (bytes.readUInt8(avcC.bodyStart + 4) & 0b11) + 1;
}

function hasIdrNal(sample: Buffer, lengthBytes: number): boolean {
  for (let at = 0; at + lengthBytes < sample.length; ) {
    const length = sample.readUIntBE(at, lengthBytes);
    if ((sample.readUInt8(at + lengthBytes) & 0x1f) === IDR_NAL_TYPE) return true;
    at += lengthBytes + length;
  }
  return false;
}

function path(bytes: Buffer, types: string[]): Box {
  let box: Box = { type: "file", bodyStart: 0, end: bytes.length };
  for (const type of types) box = child(bytes, box, type);
  return box;
}

function child(bytes: Buffer, parent: Box, type: string): Box {
  for (let at = parent.bodyStart; at + 8 <= parent.end; ) {
    const size = bytes.readUInt32BE(at);
    if (size < 8) break;
    if (bytes.toString("latin1", at + 4, at + 8) === type) return { type, bodyStart: at + 8, end: at + size };
    at += size;
  }
  throw new Error(`the encoder's MP4 has no '${type}' in '${parent.type}'`);
}
