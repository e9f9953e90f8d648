import { createHash } from "node:crypto";
import { Transform } from "node:stream";

/*
 * A streaming check that a playback download is a whole, well-formed MP4 (ISO BMFF), placed
 * between the download and the S3 multipart upload. It walks the top-level boxes only, keeps
 * nothing but the `moov` box (to read `mvhd`), and fails the stream the moment the bytes cannot
 * be a complete MP4, so the upload reading from it aborts instead of storing a partial object.
 *
 * Why not mp4box.js: it holds the data appended to it until it has parsed `moov`, and the
 * recorders also produce files with `moov` after `mdat`; a 1 GB clip of that shape would be held
 * whole in the Lambda's memory. Counting past `mdat` needs no library.
 */

export type Mp4Problem =
  /** The first box is not `ftyp` (an HTML or JSON error page, an empty body). */
  | "not-mp4"
  /** The stream ended inside a box or a box header. */
  | "truncated"
  | "no-moov"
  | "no-mdat"
  | "no-mvhd"
  /** A box header that cannot be right: size 2..7, a largesize below 16, a type that is not text. */
  | "bad-box"
  | "moov-too-large";

export class Mp4VerificationError extends Error {
  constructor(
    readonly problem: Mp4Problem,
    /** Bytes the verifier had received when it found the problem. */
    readonly bytesSeen: number,
    detail: string,
  ) {
    super(`playback is not a complete MP4 (${problem}) after ${bytesSeen} bytes: ${detail}`);
    this.name = "Mp4VerificationError";
  }
}

export interface Mp4Facts {
  bytes: number;
  /** Lowercase hex of the SHA-256 of every byte. */
  sha256Hex: string;
  /** The same digest in base64, the form of S3's ChecksumSHA256. */
  sha256Base64: string;
  /** From `mvhd` (duration / timescale * 1000); absent when the file declares it unknown. */
  durationMs?: number;
  /** Top-level box types in order, e.g. ["ftyp", "moov", "mdat"]. */
  boxes: string[];
}

export interface Mp4Verifier {
  /**
   * A pass-through Transform: bytes out exactly as in. It errors with an Mp4VerificationError as
   * soon as a problem is certain (at once if the first 8 bytes are not an `ftyp` box header), at
   * the latest when the input ends.
   */
  readonly stream: Transform;
  /** Resolves with the facts once the stream has ended successfully; rejects with the same error the stream emitted. */
  facts(): Promise<Mp4Facts>;
}

const DEFAULT_MAX_MOOV_BYTES = 32 * 1024 * 1024;

export function createMp4Verifier(options: { maxMoovBytes?: number } = {}): Mp4Verifier {
  const walker = new TopLevelWalker(options.maxMoovBytes ?? DEFAULT_MAX_MOOV_BYTES);
  const hash = createHash("sha256");
  let resolveFacts: (facts: Mp4Facts) => void = () => undefined;
  let rejectFacts: (error: Error) => void = () => undefined;
  const facts = new Promise<Mp4Facts>((resolve, reject) => {
    resolveFacts = resolve;
    rejectFacts = reject;
  });
  // Whoever only watches the stream must not also get an unhandled rejection from facts().
  facts.catch(() => undefined);

  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      try {
        walker.write(chunk);
      } catch (error) {
        // The chunk that revealed the problem is not passed on.
        callback(error as Error);
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      try {
        walker.end();
      } catch (error) {
        callback(error as Error);
        return;
      }
      const digest = hash.digest();
      resolveFacts({
        bytes: walker.bytes,
        sha256Hex: digest.toString("hex"),
        sha256Base64: digest.toString("base64"),
        ...(walker.durationMs === undefined ? {} : { durationMs: walker.durationMs }),
        boxes: [...walker.boxes],
      });
      callback();
    },
    // Every failure ends here: our own errors, an upstream error a pipeline forwards, or a
    // consumer giving up. After a successful end the facts are already settled and this is a no-op.
    destroy(error, callback) {
      rejectFacts(error ?? new Error("the MP4 verifier was closed before its input ended"));
      callback(error);
    },
  });
  return { stream, facts: () => facts };
}

const HEADER_BYTES = 8;
const LARGE_HEADER_BYTES = 16;

interface OpenBox {
  type: string;
  /** Bytes of the box still to come; undefined for a size-0 box, which runs to the end of the file. */
  remaining: number | undefined;
  /** Copies of the body, for `moov` only (a producer may reuse the buffers it writes). */
  kept?: Buffer[];
  keptBytes: number;
}

/** The top-level box structure, fed chunk by chunk; throws an Mp4VerificationError on a problem. */
class TopLevelWalker {
  bytes = 0;
  readonly boxes: string[] = [];
  durationMs: number | undefined;
  private readonly header = Buffer.alloc(LARGE_HEADER_BYTES);
  private headerFill = 0;
  private box: OpenBox | undefined;
  private sawMoov = false;
  private sawMdat = false;

  constructor(private readonly maxMoovBytes: number) {}

  write(chunk: Buffer): void {
    this.bytes += chunk.length;
    let at = 0;
    while (at < chunk.length) at = this.box ? this.readBody(chunk, at) : this.readHeader(chunk, at);
  }

  end(): void {
    if (this.bytes < HEADER_BYTES) this.fail("not-mp4", "the input ended before the first box header");
    if (this.headerFill > 0) this.fail("truncated", "the input ended inside a box header");
    if (this.box) {
      if (this.box.remaining !== undefined)
        this.fail(
          "truncated",
          `the input ended ${this.box.remaining} bytes short of the end of '${this.box.type}'`,
        );
      this.closeBox(this.box);
    }
    if (!this.sawMoov) this.fail("no-moov", "no 'moov' box");
    if (!this.sawMdat) this.fail("no-mdat", "no 'mdat' box");
  }

  /** Gathers a header across chunks: 8 bytes, or 16 when the 32-bit size is 1 (a largesize follows). */
  private readHeader(chunk: Buffer, at: number): number {
    const wanted =
      this.headerFill >= HEADER_BYTES && this.header.readUInt32BE(0) === 1
        ? LARGE_HEADER_BYTES
        : HEADER_BYTES;
    const copied = chunk.copy(this.header, this.headerFill, at, at + wanted - this.headerFill);
    this.headerFill += copied;
    if (this.headerFill < wanted) return at + copied;
    if (wanted === HEADER_BYTES) {
      if (this.boxes.length === 0 && this.header.toString("latin1", 4, 8) !== "ftyp")
        this.fail("not-mp4", "the first box is not 'ftyp'");
      if (this.header.readUInt32BE(0) === 1) return at + copied; // a 64-bit largesize follows
    }
    this.openBox(this.header.subarray(0, wanted));
    this.headerFill = 0;
    return at + copied;
  }

  private openBox(header: Buffer): void {
    const { type, headerBytes, size } = this.decodeHeader(header, 0, header.length);
    // Top-level types are four printable ASCII characters; anything else means we lost the structure.
    if (!/^[\x20-\x7e]{4}$/.test(type)) this.fail("bad-box", "a top-level box type that is not text");
    this.boxes.push(type);
    const box: OpenBox = {
      type,
      remaining: size === undefined ? undefined : size - headerBytes,
      keptBytes: 0,
    };
    if (type === "mdat") this.sawMdat = true;
    if (type === "moov") {
      if (this.sawMoov) this.fail("bad-box", "a second 'moov' box");
      if (size !== undefined && size > this.maxMoovBytes)
        this.fail("moov-too-large", `'moov' declares ${size} bytes, more than ${this.maxMoovBytes}`);
      this.sawMoov = true;
      box.kept = [];
    }
    this.box = box;
    if (box.remaining === 0) this.closeBox(box);
  }

  private readBody(chunk: Buffer, at: number): number {
    const box = this.box as OpenBox;
    const taken = Math.min(box.remaining ?? Number.POSITIVE_INFINITY, chunk.length - at);
    if (box.kept) {
      box.keptBytes += taken;
      // Checked as bytes arrive too, for a size-0 `moov` that runs to the end of the file.
      if (box.keptBytes + HEADER_BYTES > this.maxMoovBytes)
        this.fail("moov-too-large", `'moov' is more than ${this.maxMoovBytes} bytes`);
      box.kept.push(Buffer.from(chunk.subarray(at, at + taken)));
    }
    if (box.remaining !== undefined) {
      box.remaining -= taken;
      if (box.remaining === 0) this.closeBox(box);
    }
    return at + taken;
  }

  private closeBox(box: OpenBox): void {
    this.box = undefined;
    if (box.kept) this.durationMs = this.readMvhd(Buffer.concat(box.kept, box.keptBytes));
  }

  /** Finds `mvhd` among the children of `moov` and returns the duration in ms (undefined if unknown). */
  private readMvhd(moov: Buffer): number | undefined {
    for (let offset = 0; offset < moov.length; ) {
      const available = moov.length - offset;
      const { type, headerBytes, size = available } = this.decodeHeader(moov, offset, available);
      if (size > available) this.fail("bad-box", `'${type}' runs past the end of 'moov'`);
      if (type === "mvhd") {
        const body = offset + headerBytes;
        const version = size > headerBytes ? moov.readUInt8(body) : 0;
        // After version and flags: creation and modification times, timescale (32 bits) and
        // duration; version 1 has 64-bit times and a 64-bit duration.
        const needed = headerBytes + (version === 1 ? 32 : 20);
        if (size < needed) this.fail("bad-box", `'mvhd' version ${version} is only ${size} bytes`);
        const timescale = moov.readUInt32BE(body + (version === 1 ? 20 : 12));
        const duration =
          version === 1 ? moov.readBigUInt64BE(body + 24) : BigInt(moov.readUInt32BE(body + 16));
        // All ones means "unknown"; a timescale of 0 gives no duration either.
        const unknown = version === 1 ? 0xffff_ffff_ffff_ffffn : 0xffff_ffffn;
        return timescale === 0 || duration === unknown ? undefined : (Number(duration) / timescale) * 1000;
      }
      offset += size;
    }
    return this.fail("no-mvhd", "'moov' has no 'mvhd' box");
  }

  /** Reads a box header at `offset` with `available` bytes of it at hand; size undefined = to the end. */
  private decodeHeader(
    bytes: Buffer,
    offset: number,
    available: number,
  ): { type: string; headerBytes: number; size?: number } {
    if (available < HEADER_BYTES) this.fail("bad-box", `${available} stray bytes where a box header belongs`);
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    const size32 = bytes.readUInt32BE(offset);
    if (size32 === 0) return { type, headerBytes: HEADER_BYTES };
    if (size32 !== 1) {
      if (size32 < HEADER_BYTES) this.fail("bad-box", `'${type}' declares ${size32} bytes`);
      return { type, headerBytes: HEADER_BYTES, size: size32 };
    }
    if (available < LARGE_HEADER_BYTES) this.fail("bad-box", `'${type}' has a cut-off largesize`);
    const large = bytes.readBigUInt64BE(offset + 8);
    if (large < LARGE_HEADER_BYTES || large > BigInt(Number.MAX_SAFE_INTEGER))
      this.fail("bad-box", `'${type}' declares a largesize of ${large} bytes`);
    return { type, headerBytes: LARGE_HEADER_BYTES, size: Number(large) };
  }

  private fail(problem: Mp4Problem, detail: string): never {
    throw new Mp4VerificationError(problem, this.bytes, detail);
  }
}
