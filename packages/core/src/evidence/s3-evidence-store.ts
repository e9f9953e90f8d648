import { createHash, randomUUID } from "node:crypto";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { S3_MIN_PART_BYTES } from "../aws-limits.js";
import { gcPacer } from "./gc-pacer.js";
import { type CurrentManifest, manifestSchema } from "./manifest.js";
import { createMp4Verifier, type Mp4Facts } from "./mp4-verifier.js";
import { MultipartUpload } from "./multipart-upload.js";
import { partWriter } from "./part-writer.js";
import type { EvidenceSink, ReadManifest, StoredClip, StoredObject } from "./ports.js";

/**
 * Evidence in S3. A clip streams through the MP4 verifier into a multipart upload in the staging
 * bucket; only when it is complete and verified is it copied (server-side) into the evidence
 * bucket, with its SHA-256 as metadata and an S3 SHA-256 checksum. So the evidence bucket, which
 * may be Object Locked, never holds a partial or wrong object, and its metadata can carry a digest
 * that is only known once the last byte has passed. The staging bucket holds nothing for long:
 * the staged object is deleted after the copy, and a lifecycle rule expires what a crash leaves.
 */
export class S3EvidenceStore implements EvidenceSink {
  constructor(
    private readonly s3: S3Client,
    private readonly buckets: { evidence: string; staging: string },
  ) {}

  async readManifest(key: string): Promise<ReadManifest | undefined> {
    const bytes = await this.readObject(key);
    if (!bytes) return undefined;
    return {
      manifest: manifestSchema.parse(JSON.parse(Buffer.from(bytes).toString("utf8"))),
      stored: { bytes: bytes.length, sha256Hex: createHash("sha256").update(bytes).digest("hex") },
    };
  }

  async readObject(key: string): Promise<Uint8Array | undefined> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.buckets.evidence, Key: key }));
      return await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray();
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      throw error;
    }
  }

  /** A clip already in the evidence bucket (a crash after it was stored), as its metadata describes it. */
  async storedClip(key: string): Promise<StoredClip | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.buckets.evidence, Key: key }));
      const sha256Hex = head.Metadata?.sha256;
      if (!sha256Hex || head.ContentLength === undefined) return undefined;
      const durationMs = Number(head.Metadata?.["mp4-duration-ms"]);
      const requestedAt = head.Metadata?.["requested-at"];
      return {
        bytes: head.ContentLength,
        sha256Hex,
        ...(Number.isFinite(durationMs) && { durationMs }),
        ...(requestedAt !== undefined && { requestedAt }),
      };
    } catch (error) {
      if (error instanceof NotFound || (error as { name?: string }).name === "NotFound") return undefined;
      throw error;
    }
  }

  /**
   * Streams `body` into the evidence bucket at `key`, verified on the way. If the download fails,
   * is truncated or is not an MP4, the staging upload is aborted and nothing reaches the evidence
   * bucket; the error is rethrown.
   */
  async storeClip(
    key: string,
    body: Readable,
    metadata: Record<string, string>,
    /** Told the bytes received so far as they arrive, for a progress display. */
    onProgress?: (bytes: number) => void,
  ): Promise<StoredClip> {
    const verifier = createMp4Verifier();
    // A key of its own per attempt: two deliveries of one job running at once cannot mix their parts.
    const stagingKey = `${key}.${randomUUID()}`;
    const upload = new MultipartUpload(this.s3, {
      bucket: this.buckets.staging,
      key: stagingKey,
      contentType: "video/mp4",
    });
    let received = 0;
    const collectGarbage = gcPacer();
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        collectGarbage(chunk.length);
        onProgress?.(received);
        done(null, chunk);
      },
    });
    let facts: Mp4Facts;
    try {
      // S3's smallest part, fed straight from the download through two reused buffers: one part
      // uploading while the next fills (see partWriter and MultipartUpload for why not lib-storage).
      // The writer sees the end of the stream only once the verifier has passed the whole MP4, so a
      // truncated or broken download never completes the upload.
      await pipeline(
        body,
        counted,
        verifier.stream,
        partWriter(S3_MIN_PART_BYTES, (partNumber, bytes) => upload.uploadPart(partNumber, bytes)),
      );
      facts = await verifier.facts();
      await upload.complete();
    } catch (error) {
      await upload.abort().catch(() => undefined);
      body.destroy();
      throw error;
    }
    await this.s3.send(
      new CopyObjectCommand({
        Bucket: this.buckets.evidence,
        Key: key,
        CopySource: `${this.buckets.staging}/${encodeURIComponent(stagingKey).replace(/%2F/g, "/")}`,
        MetadataDirective: "REPLACE",
        ContentType: "video/mp4",
        ChecksumAlgorithm: "SHA256",
        Metadata: {
          ...metadata,
          sha256: facts.sha256Hex,
          ...(facts.durationMs !== undefined && { "mp4-duration-ms": String(Math.round(facts.durationMs)) }),
        },
      }),
    );
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.buckets.staging, Key: stagingKey }));
    return {
      bytes: facts.bytes,
      sha256Hex: facts.sha256Hex,
      ...(facts.durationMs !== undefined && { durationMs: facts.durationMs }),
    };
  }

  /**
   * A small document, put whole straight into the evidence bucket with the SHA-256 of its bytes:
   * S3 checks what it received against that digest (and refuses a mismatch), and keeps it as the
   * `sha256` metadata, as a clip's. Rewriting a key adds a version in the versioned bucket; the
   * version written is returned, so that a manifest can name exactly the bytes it hashed.
   */
  async putObject(key: string, body: string | Uint8Array, contentType: string): Promise<StoredObject> {
    const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
    const digest = createHash("sha256").update(bytes).digest();
    const sha256Hex = digest.toString("hex");
    const written = await this.s3.send(
      new PutObjectCommand({
        Bucket: this.buckets.evidence,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        // The algorithm named too: Object Lock wants x-amz-sdk-checksum-algorithm (or Content-MD5).
        ChecksumAlgorithm: "SHA256",
        ChecksumSHA256: digest.toString("base64"),
        Metadata: { sha256: sha256Hex },
      }),
    );
    return { bytes: bytes.length, sha256Hex, ...(written.VersionId && { versionId: written.VersionId }) };
  }

  async putManifest(key: string, manifest: CurrentManifest): Promise<StoredObject> {
    return this.putObject(key, `${JSON.stringify(manifest, null, 2)}\n`, "application/json");
  }
}
