import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchUpload,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3_MIN_PART_BYTES } from "../../../packages/core/src/aws-limits.js";
import { Mp4VerificationError } from "../../../packages/core/src/evidence/mp4-verifier.js";
import { S3EvidenceStore } from "../../../packages/core/src/evidence/s3-evidence-store.js";
import { type Emulators, startEmulators } from "../../support/emulators.js";

/*
 * The clip path of S3EvidenceStore against fauxqs over the real SDK: the multipart upload it feeds
 * from the download, what it keeps, and that every failure aborts the upload (fauxqs forgets an
 * aborted upload: a part sent to it afterwards is refused with NoSuchUpload). fauxqs checks no
 * checksum, so the checksum headers are tested apart, in multipart-upload.test.ts.
 */

let emulators: Emulators;
beforeAll(async () => {
  emulators = await startEmulators();
});
afterAll(() => emulators.close());

const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
const box = (type: string, ...body: Buffer[]) => {
  const payload = Buffer.concat(body);
  return Buffer.concat([u32(8 + payload.length), Buffer.from(type, "latin1"), payload]);
};
const mvhd = box(
  "mvhd",
  Buffer.from([0, 0, 0, 0]),
  u32(3),
  u32(4),
  u32(1000),
  u32(61_000), // 61 s at a timescale of 1000
  Buffer.alloc(80),
);

/** A well-formed MP4 of about `mediaBytes`, `moov` last as some recorders write it; its media varies. */
function mp4(mediaBytes: number): Buffer {
  const media = Buffer.alloc(mediaBytes);
  for (let at = 0; at + 4 <= mediaBytes; at += 4) media.writeUInt32BE(at >>> 2, at);
  return Buffer.concat([
    box("ftyp", Buffer.from("isom", "latin1"), u32(512)),
    box("mdat", media),
    box("moov", mvhd),
  ]);
}

/** The bytes in chunks of 64 KiB, as a download delivers them; `fail` ends the stream with an error at that offset. */
function download(bytes: Buffer, fail?: { at: number; error: Error }): Readable {
  async function* chunks() {
    for (let at = 0; at < bytes.length; at += 65_536) {
      if (fail && at >= fail.at) throw fail.error;
      yield bytes.subarray(at, at + 65_536);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * A store over the emulator's client that records each S3 operation sent (and each part settled),
 * and the upload ids S3 gave. `faults` holds a part back or fails it before it is sent, as a slow or
 * broken network would (fauxqs itself never refuses a part).
 */
function recordingStore(faults: { delayPartMs?: number; failPart?: number } = {}) {
  const sent: string[] = [];
  const uploadIds: string[] = [];
  const s3 = emulators.clients.s3;
  const send = s3.send.bind(s3) as (command: unknown, options?: unknown) => Promise<{ UploadId?: string }>;
  const store = new S3EvidenceStore(
    {
      send: async (
        command: { constructor: { name: string }; input: { PartNumber?: number } },
        options?: unknown,
      ) => {
        const operation = command.constructor.name.replace(/Command$/, "");
        sent.push(operation);
        const part = command.input.PartNumber;
        try {
          if (part !== undefined && faults.delayPartMs)
            await new Promise((resolve) => setTimeout(resolve, faults.delayPartMs));
          if (part !== undefined && part === faults.failPart) throw new Error("socket hang up");
          const output = await send(command, options);
          if (output.UploadId) uploadIds.push(output.UploadId);
          return output;
        } finally {
          if (part !== undefined) sent.push("part settled");
        }
      },
    } as unknown as typeof s3,
    { evidence: emulators.bucket, staging: emulators.stagingBucket },
  );
  return { store, sent, uploadIds };
}

async function keys(bucket: string, prefix: string) {
  const listed = await emulators.clients.s3.send(
    new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }),
  );
  return (listed.Contents ?? []).map((object) => object.Key);
}

/** Whether fauxqs still knows the multipart upload (a part sent to an aborted or completed one is refused). */
async function uploadExists(key: string, uploadId: string): Promise<boolean> {
  try {
    await emulators.clients.s3.send(
      new UploadPartCommand({
        Bucket: emulators.stagingBucket,
        Key: key,
        UploadId: uploadId,
        PartNumber: 99,
        Body: Buffer.from("probe"),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof NoSuchUpload || (error as { name?: string }).name === "NoSuchUpload") return false;
    throw error;
  }
}

describe("S3EvidenceStore.storeClip on the emulator", () => {
  it("stores a clip of several parts byte for byte, with its SHA-256, and leaves nothing staged", async () => {
    const clip = mp4(2 * S3_MIN_PART_BYTES + 123_457);
    const { store, sent, uploadIds } = recordingStore();
    const stored = await store.storeClip("evidence/a/ch1.mp4", download(clip), { deviceid: "D1" });

    expect(stored).toEqual({ bytes: clip.length, sha256Hex: sha256(clip), durationMs: 61_000 });
    expect(sent).toEqual([
      "CreateMultipartUpload",
      "UploadPart",
      "part settled",
      "UploadPart",
      "part settled",
      "UploadPart",
      "part settled",
      "CompleteMultipartUpload",
      "CopyObject",
      "DeleteObject",
    ]);
    const object = await emulators.clients.s3.send(
      new GetObjectCommand({ Bucket: emulators.bucket, Key: "evidence/a/ch1.mp4" }),
    );
    const body = Buffer.from(
      await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    );
    expect(sha256(body)).toBe(sha256(clip));
    expect(object.Metadata).toMatchObject({
      deviceid: "D1",
      sha256: sha256(clip),
      "mp4-duration-ms": "61000",
    });
    expect(await keys(emulators.stagingBucket, "evidence/a/")).toEqual([]);
    // Completed: fauxqs no longer knows the upload (it ignores the key of a part).
    expect(await uploadExists("evidence/a/ch1.mp4", uploadIds[0] as string)).toBe(false);
  });

  it("stores a clip smaller than a part as a one-part upload", async () => {
    const clip = mp4(300_000);
    const { store } = recordingStore();
    const stored = await store.storeClip("evidence/b/ch1.mp4", download(clip), {});
    expect(stored.sha256Hex).toBe(sha256(clip));
    const head = await emulators.clients.s3.send(
      new HeadObjectCommand({ Bucket: emulators.bucket, Key: "evidence/b/ch1.mp4" }),
    );
    expect(head.ContentLength).toBe(clip.length);
  });

  it.each([
    [
      "a download cut after two parts were sent",
      (clip: Buffer) =>
        download(clip, { at: 2 * S3_MIN_PART_BYTES + 65_536, error: new Error("connection reset") }),
    ],
    [
      "a download cut inside the first part",
      (clip: Buffer) => download(clip, { at: 65_536, error: new Error("connection reset") }),
    ],
    [
      "a download that ends early (truncated MP4)",
      (clip: Buffer) => download(clip.subarray(0, clip.length - 1_000)),
    ],
  ])("aborts the upload after %s: nothing stored, nothing staged, no part kept", async (_label, body) => {
    const clip = mp4(3 * S3_MIN_PART_BYTES);
    const key = `evidence/c${_label.length}/ch1.mp4`;
    const { store, sent, uploadIds } = recordingStore();
    const error = await store.storeClip(key, body(clip), {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    if (_label.includes("truncated")) expect(error).toBeInstanceOf(Mp4VerificationError);
    expect(sent).toContain("AbortMultipartUpload");
    expect(sent).not.toContain("CompleteMultipartUpload");
    expect(sent).not.toContain("CopyObject");
    expect(await keys(emulators.bucket, key)).toEqual([]);
    expect(await keys(emulators.stagingBucket, key)).toEqual([]);
    expect(uploadIds).toHaveLength(1);
    expect(await uploadExists(key, uploadIds[0] as string)).toBe(false);
  });

  it("aborts the upload when a part cannot be sent, after the parts before it were stored", async () => {
    const clip = mp4(3 * S3_MIN_PART_BYTES);
    const key = "evidence/d/ch1.mp4";
    const { store, sent, uploadIds } = recordingStore({ failPart: 2 });
    await expect(store.storeClip(key, download(clip), {})).rejects.toThrow("socket hang up");
    expect(sent.filter((operation) => operation !== "part settled")).toEqual([
      "CreateMultipartUpload",
      "UploadPart",
      "UploadPart",
      "AbortMultipartUpload",
    ]);
    expect(await keys(emulators.bucket, key)).toEqual([]);
    expect(await uploadExists(key, uploadIds[0] as string)).toBe(false);
  });

  it("waits for the part under way before it aborts: no part can land after the abort", async () => {
    const clip = mp4(3 * S3_MIN_PART_BYTES);
    const key = "evidence/e/ch1.mp4";
    const { store, sent, uploadIds } = recordingStore({ delayPartMs: 200 });
    // The download fails while part 1 is still held back on its way to S3.
    const body = download(clip, { at: S3_MIN_PART_BYTES + 65_536, error: new Error("connection reset") });
    await expect(store.storeClip(key, body, {})).rejects.toThrow("connection reset");
    expect(sent).toEqual(["CreateMultipartUpload", "UploadPart", "part settled", "AbortMultipartUpload"]);
    expect(await uploadExists(key, uploadIds[0] as string)).toBe(false);
  });
});
