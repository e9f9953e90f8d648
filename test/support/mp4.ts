import { createHash } from "node:crypto";
import type { Readable } from "node:stream";

export interface Mp4Inspection {
  /** Top-level boxes in order, with their full sizes. */
  boxes: { type: string; size: number }[];
  totalBytes: number;
  sha256: string;
  /** mvhd duration in milliseconds (duration / timescale * 1000). */
  durationMs: number | undefined;
}

// Boxes small enough to keep whole while walking (the rest, like mdat, are only counted).
const KEPT_BOXES = new Set(["ftyp", "moov"]);

/**
 * Walks the top-level ISO BMFF boxes of a stream without holding it: a test-side, independent
 * reading of what the simulator produced and the client delivered.
 */
export async function inspectMp4(stream: Readable): Promise<Mp4Inspection> {
  const hash = createHash("sha256");
  const boxes: Mp4Inspection["boxes"] = [];
  let pending = Buffer.alloc(0); // unparsed bytes of a header or of a kept box
  let skip = 0; // bytes of the current box still to pass over
  let totalBytes = 0;
  let durationMs: number | undefined;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    totalBytes += chunk.length;
    let data = Buffer.concat([pending, chunk]);
    pending = Buffer.alloc(0);
    for (;;) {
      if (skip > 0) {
        const passed = Math.min(skip, data.length);
        skip -= passed;
        data = data.subarray(passed);
        if (skip > 0) break;
      }
      if (data.length < 16) {
        pending = data;
        break;
      }
      const size32 = data.readUInt32BE(0);
      const type = data.toString("latin1", 4, 8);
      const size = size32 === 1 ? Number(data.readBigUInt64BE(8)) : size32;
      if (KEPT_BOXES.has(type) && data.length < size) {
        pending = data;
        break;
      }
      boxes.push({ type, size });
      if (type === "moov") durationMs = readMvhdDuration(data.subarray(8, size));
      if (KEPT_BOXES.has(type)) {
        data = data.subarray(size);
      } else {
        skip = size;
      }
    }
  }
  return { boxes, totalBytes, sha256: hash.digest("hex"), durationMs };
}

function readMvhdDuration(moovBody: Buffer): number | undefined {
  for (let offset = 0; offset + 8 <= moovBody.length; ) {
    const size = moovBody.readUInt32BE(offset);
    if (moovBody.toString("latin1", offset + 4, offset + 8) === "mvhd") {
      const version = moovBody.readUInt8(offset + 8);
      const timescale =
        version === 1 ? moovBody.readUInt32BE(offset + 28) : moovBody.readUInt32BE(offset + 20);
      const duration =
        version === 1 ? Number(moovBody.readBigUInt64BE(offset + 32)) : moovBody.readUInt32BE(offset + 24);
      return (duration / timescale) * 1000;
    }
    if (size < 8) return undefined;
    offset += size;
  }
  return undefined;
}
