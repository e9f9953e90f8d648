import { createHash } from "node:crypto";
import { PassThrough, Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import {
  createMp4Verifier,
  type Mp4Facts,
  type Mp4Problem,
  Mp4VerificationError,
} from "../../../packages/core/src/evidence/mp4-verifier.js";

// --- Building MP4 bytes -------------------------------------------------------------------------

const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
const u64 = (value: bigint) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(value);
  return bytes;
};
const fourcc = (type: string) => Buffer.from(type, "latin1");

/** A box with a 32-bit size. */
const box = (type: string, ...body: Buffer[]) => {
  const payload = Buffer.concat(body);
  return Buffer.concat([u32(8 + payload.length), fourcc(type), payload]);
};
/** A box with size 1 and a 64-bit largesize. */
const largeBox = (type: string, payload: Buffer) =>
  Buffer.concat([u32(1), fourcc(type), u64(BigInt(16 + payload.length)), payload]);
/** A box with size 0: it runs to the end of the file. */
const openEndedBox = (type: string, payload: Buffer) => Buffer.concat([u32(0), fourcc(type), payload]);

const ftyp = box("ftyp", fourcc("isom"), u32(512), fourcc("isom"), fourcc("avc1"));
/** The body of a full-size mvhd (108 bytes as a box for version 0, 120 for version 1). */
function mvhdBody(version: 0 | 1, timescale: number, duration: bigint): Buffer {
  const times = version === 1 ? Buffer.concat([u64(3n), u64(4n)]) : Buffer.concat([u32(3), u32(4)]);
  const length = version === 1 ? u64(duration) : u32(Number(duration));
  const rest = Buffer.alloc(80); // rate, volume, matrix, pre_defined, next_track_ID
  return Buffer.concat([Buffer.from([version, 0, 0, 0]), times, u32(timescale), length, rest]);
}
const mvhd = (version: 0 | 1, timescale: number, duration: bigint) =>
  box("mvhd", mvhdBody(version, timescale, duration));
const trak = box("trak", box("tkhd", Buffer.alloc(84)));
const moovV0 = box("moov", mvhd(0, 1000, 90_500n), trak);
/** 60 000 s at 90 kHz: the duration needs more than 32 bits. */
const moovV1 = box("moov", mvhd(1, 90_000, 5_400_000_000n), trak);
const media = (length: number) => Buffer.alloc(length, 0xa5);
const mdat = box("mdat", media(5000));

/** Splits bytes into chunks of `size`, or of the sizes in turn. */
function chunks(bytes: Buffer, size: number | number[]): Buffer[] {
  const sizes = Array.isArray(size) ? size : [size];
  const out: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const length = sizes[i % sizes.length] as number;
    out.push(bytes.subarray(at, at + length));
    at += length;
  }
  return out;
}

interface Run {
  output: Buffer;
  /** Whether the consumer saw a clean end (an upload would complete). */
  completed: boolean;
  error: unknown;
  facts: PromiseSettledResult<Mp4Facts>;
}

/** Streams the chunks through a verifier into memory (small inputs only). */
async function run(parts: Buffer[], options?: { maxMoovBytes?: number }): Promise<Run> {
  const verifier = createMp4Verifier(options);
  const received: Buffer[] = [];
  let completed = false;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      received.push(chunk);
      callback();
    },
    final(callback) {
      completed = true;
      callback();
    },
  });
  const error = await pipeline(Readable.from(parts), verifier.stream, sink).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  const [facts] = await Promise.allSettled([verifier.facts()]);
  return {
    output: Buffer.concat(received),
    completed,
    error,
    facts: facts as PromiseSettledResult<Mp4Facts>,
  };
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest();

const chunkings: [string, number | number[]][] = [
  ["1-byte", 1],
  ["odd-sized", [7, 3, 13, 1, 29]],
  ["4093-byte", 4093],
  ["single", 1 << 30],
];

// --- Well-formed files --------------------------------------------------------------------------

const goodFiles: [string, Buffer, string[], number][] = [
  ["moov before mdat, mvhd v0", Buffer.concat([ftyp, moovV0, mdat]), ["ftyp", "moov", "mdat"], 90_500],
  ["moov after mdat, mvhd v1", Buffer.concat([ftyp, mdat, moovV1]), ["ftyp", "mdat", "moov"], 60_000_000],
  [
    "mdat with a 64-bit largesize, and a free box",
    Buffer.concat([ftyp, box("free", media(10)), largeBox("mdat", media(3000)), moovV0]),
    ["ftyp", "free", "mdat", "moov"],
    90_500,
  ],
  [
    "mdat of size 0 at the end",
    Buffer.concat([ftyp, moovV1, openEndedBox("mdat", media(7000))]),
    ["ftyp", "moov", "mdat"],
    60_000_000,
  ],
  [
    "an mvhd with a largesize header",
    Buffer.concat([ftyp, box("moov", largeBox("mvhd", mvhdBody(1, 1000, 2500n)), trak), mdat]),
    ["ftyp", "moov", "mdat"],
    2500,
  ],
  [
    "moov of size 0 at the end",
    Buffer.concat([ftyp, mdat, openEndedBox("moov", Buffer.concat([mvhd(0, 600, 54_000n), trak]))]),
    ["ftyp", "mdat", "moov"],
    90_000,
  ],
];

describe("MP4 verifier: well-formed files", () => {
  describe.each(goodFiles)("%s", (_name, file, boxes, durationMs) => {
    it.each(chunkings)(
      "passes %s chunks through unchanged and reports the facts",
      async (_chunking, size) => {
        const result = await run(chunks(file, size));
        expect(result.error).toBeUndefined();
        expect(result.completed).toBe(true);
        expect(result.output.equals(file)).toBe(true);
        const digest = sha256(file);
        expect(result.facts).toEqual({
          status: "fulfilled",
          value: {
            bytes: file.length,
            sha256Hex: digest.toString("hex"),
            sha256Base64: digest.toString("base64"),
            durationMs,
            boxes,
          },
        });
      },
    );
  });

  it("accepts a moov of exactly maxMoovBytes", async () => {
    const result = await run([Buffer.concat([ftyp, moovV0, mdat])], { maxMoovBytes: moovV0.length });
    expect(result.error).toBeUndefined();
  });

  it("leaves the duration out when mvhd declares it unknown", async () => {
    const moov = box("moov", mvhd(0, 1000, 0xffff_ffffn));
    const result = await run([Buffer.concat([ftyp, moov, mdat])]);
    expect(result.facts.status).toBe("fulfilled");
    expect(result.facts.status === "fulfilled" && "durationMs" in result.facts.value).toBe(false);
  });
});

// --- Broken inputs ------------------------------------------------------------------------------

const whole = Buffer.concat([ftyp, moovV0, mdat]);
const badFiles: [string, Buffer, Mp4Problem, { maxMoovBytes?: number }?][] = [
  ["an HTML error page", Buffer.from("<!DOCTYPE html><html><body>No record</body></html>"), "not-mp4"],
  ["a JSON error", Buffer.from('{"result":-1,"msg":"device offline"}'), "not-mp4"],
  ["an empty body", Buffer.alloc(0), "not-mp4"],
  ["fewer than 8 bytes", ftyp.subarray(0, 6), "not-mp4"],
  ["a file that starts with moov", Buffer.concat([moovV0, ftyp, mdat]), "not-mp4"],
  ["a cut inside mdat", whole.subarray(0, whole.length - 1), "truncated"],
  ["a cut inside a box header", Buffer.concat([ftyp, moovV0, mdat.subarray(0, 5)]), "truncated"],
  [
    "a cut inside a largesize header",
    Buffer.concat([ftyp, moovV0, largeBox("mdat", media(10)).subarray(0, 12)]),
    "truncated",
  ],
  ["a cut inside moov", Buffer.concat([ftyp, mdat, moovV0.subarray(0, 50)]), "truncated"],
  ["no moov", Buffer.concat([ftyp, mdat]), "no-moov"],
  ["no mdat", Buffer.concat([ftyp, moovV0, box("free", media(100))]), "no-mdat"],
  ["moov without mvhd", Buffer.concat([ftyp, box("moov", trak), mdat]), "no-mvhd"],
  ["an empty moov", Buffer.concat([ftyp, box("moov"), mdat]), "no-mvhd"],
  [
    "moov larger than the limit",
    Buffer.concat([ftyp, moovV0, mdat]),
    "moov-too-large",
    { maxMoovBytes: 200 },
  ],
  [
    "a size-0 moov growing past the limit",
    Buffer.concat([ftyp, mdat, openEndedBox("moov", Buffer.concat([mvhd(0, 1000, 1n), media(500)]))]),
    "moov-too-large",
    { maxMoovBytes: 400 },
  ],
  ["a box size of 3", Buffer.concat([ftyp, u32(3), fourcc("mdat"), media(100)]), "bad-box"],
  ["a largesize below 16", Buffer.concat([ftyp, u32(1), fourcc("mdat"), u64(9n), media(100)]), "bad-box"],
  [
    "garbage where a box header belongs",
    Buffer.concat([ftyp, moovV0, Buffer.from([0, 0, 1, 0, 0xff, 0x00, 0x13, 0x37]), media(248)]),
    "bad-box",
  ],
  ["a second moov", Buffer.concat([ftyp, moovV0, moovV0, mdat]), "bad-box"],
  ["an mvhd cut short", Buffer.concat([ftyp, box("moov", box("mvhd", u32(0), u32(1))), mdat]), "bad-box"],
  [
    "a moov child running past moov",
    Buffer.concat([ftyp, box("moov", u32(500), fourcc("trak"), media(20)), mdat]),
    "bad-box",
  ],
];

describe("MP4 verifier: broken inputs", () => {
  describe.each(badFiles)("%s", (_name, file, problem, options) => {
    it.each(chunkings)(`fails the stream with '${problem}' (%s chunks)`, async (_chunking, size) => {
      const result = await run(chunks(file, size), options);
      expect(result.error).toBeInstanceOf(Mp4VerificationError);
      expect((result.error as Mp4VerificationError).problem).toBe(problem);
      expect(result.facts).toEqual({ status: "rejected", reason: result.error });
      expect(result.completed).toBe(false);
    });
  });

  it("errors at once on the first 8 bytes of a non-MP4, without waiting for the end", async () => {
    const verifier = createMp4Verifier();
    const error = new Promise((resolve) => verifier.stream.once("error", resolve));
    verifier.stream.write(Buffer.from("<!DOCTYP"));
    const failure = (await error) as Mp4VerificationError;
    expect(failure).toBeInstanceOf(Mp4VerificationError);
    expect(failure.problem).toBe("not-mp4");
    expect(failure.bytesSeen).toBe(8);
    await expect(verifier.facts()).rejects.toBe(failure);
  });

  it("errors as soon as a bad box header arrives, mid-stream", async () => {
    const verifier = createMp4Verifier();
    const input = new PassThrough();
    input.pipe(verifier.stream);
    const error = new Promise<Mp4VerificationError>((resolve) => verifier.stream.once("error", resolve));
    verifier.stream.resume();
    input.write(Buffer.concat([ftyp, moovV0, u32(4), fourcc("mdat")])); // the input never ends
    const failure = await error;
    expect(failure.problem).toBe("bad-box");
    expect(failure.bytesSeen).toBe(ftyp.length + moovV0.length + 8);
    expect(failure.message).toContain("'mdat' declares 4 bytes");
  });

  it("makes a pipeline into an upload reject, and the upload never completes", async () => {
    const verifier = createMp4Verifier();
    let completed = false;
    const upload = new Writable({
      write(_chunk, _encoding, callback) {
        callback();
      },
      final(callback) {
        completed = true;
        callback();
      },
    });
    const truncated = whole.subarray(0, whole.length - 100);
    await expect(
      pipeline(Readable.from(chunks(truncated, 64)), verifier.stream, upload),
    ).rejects.toMatchObject({
      name: "Mp4VerificationError",
      problem: "truncated",
      bytesSeen: truncated.length,
    });
    expect(completed).toBe(false);
    expect(upload.destroyed).toBe(true);
    await expect(verifier.facts()).rejects.toBeInstanceOf(Mp4VerificationError);
  });

  it("rejects facts() with an upstream error that a pipeline forwards", async () => {
    const verifier = createMp4Verifier();
    const cut = new Error("connection reset");
    async function* download() {
      yield ftyp;
      throw cut;
    }
    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    await expect(pipeline(Readable.from(download()), verifier.stream, sink)).rejects.toBe(cut);
    await expect(verifier.facts()).rejects.toBe(cut);
  });
});

// --- Memory -------------------------------------------------------------------------------------

describe("MP4 verifier: memory", () => {
  it("streams a 300 MB mdat with moov at the end without holding it", async () => {
    const MiB = 1024 * 1024;
    const mdatChunks = 300;
    const block = Buffer.alloc(MiB, 0x5a); // one buffer, yielded again and again
    const expected = createHash("sha256");
    async function* clip() {
      for (const part of [ftyp, u32(8 + mdatChunks * MiB), fourcc("mdat")]) {
        expected.update(part);
        yield part;
      }
      for (let i = 0; i < mdatChunks; i++) {
        expected.update(block);
        yield block;
      }
      expected.update(moovV0);
      yield moovV0;
    }
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    let received = 0;
    const sink = new Writable({
      highWaterMark: MiB,
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
        callback();
      },
    });
    const verifier = createMp4Verifier();
    await pipeline(Readable.from(clip()), verifier.stream, sink);
    const facts = await verifier.facts();
    const total = ftyp.length + 8 + mdatChunks * MiB + moovV0.length;
    expect(received).toBe(total);
    expect(facts.bytes).toBe(total);
    expect(facts.boxes).toEqual(["ftyp", "mdat", "moov"]);
    expect(facts.durationMs).toBe(90_500);
    expect(facts.sha256Hex).toBe(expected.digest("hex"));
    expect(peak - baseline).toBeLessThan(64 * MiB);
  });
});
