import { createHash } from "node:crypto";
import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { S3_MAX_PARTS } from "../aws-limits.js";

/**
 * One S3 multipart upload, sent part by part from buffers the caller owns. Each part goes with
 * the SHA-256 of its bytes as its S3 checksum, so S3 refuses a part that did not arrive as sent
 * (BadDigest), and the upload is created with that algorithm, so the object keeps a checksum of
 * its parts. `abort()` after any failure leaves no part behind.
 *
 * Ours rather than lib-storage's `Upload`, which copies every part into a new buffer (900 MB of
 * garbage for a 30-minute clip) and lets the SDK hash each part twice (its checksum, then its
 * signature). Here the parts come from two buffers the caller reuses (partWriter), and one SHA-256
 * per part serves both: with the clip's own digest, two passes over the bytes instead of three.
 */
export class MultipartUpload {
  private readonly uploadId: Promise<string>;
  private readonly parts: CompletedPart[] = [];
  /** Part requests under way, so that abort() can wait for them: a part that lands after the abort would be kept. */
  private readonly sending = new Set<Promise<unknown>>();
  private readonly cancel = new AbortController();

  constructor(
    private readonly s3: S3Client,
    private readonly target: { bucket: string; key: string; contentType: string },
  ) {
    // Created at once, while the first part fills. Never cancelled: a create that reached S3 must be
    // known to abort(), or its upload would stay behind.
    this.uploadId = s3
      .send(
        new CreateMultipartUploadCommand({
          Bucket: target.bucket,
          Key: target.key,
          ContentType: target.contentType,
          ChecksumAlgorithm: "SHA256",
        }),
      )
      .then(({ UploadId }) => {
        if (!UploadId) throw new Error(`S3 gave no upload id for ${target.key}`);
        return UploadId;
      });
    // Whoever awaits it sees the failure; nobody may be awaiting it yet.
    this.uploadId.catch(() => undefined);
  }

  /**
   * Sends `bytes` as part `partNumber` (from 1). The caller must leave `bytes` unchanged until this
   * settles: the SDK sends them again on a retry.
   */
  async uploadPart(partNumber: number, bytes: Uint8Array): Promise<void> {
    if (this.cancel.signal.aborted) throw new Error(`the upload of ${this.target.key} was aborted`);
    if (partNumber > S3_MAX_PARTS)
      throw new Error(`${this.target.key} needs more than ${S3_MAX_PARTS} parts, S3's most`);
    const sent = this.send(partNumber, bytes);
    this.sending.add(sent);
    try {
      await sent;
    } finally {
      this.sending.delete(sent);
    }
  }

  /** Completes the upload from every part sent (the object appears now, whole). */
  async complete(): Promise<void> {
    const parts = [...this.parts].sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
    await this.s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.target.bucket,
        Key: this.target.key,
        UploadId: await this.uploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
  }

  /**
   * Stops the part requests under way, waits for them to settle, then aborts the upload, so that S3
   * frees every part. A no-op when the upload was never created.
   */
  async abort(): Promise<void> {
    this.cancel.abort();
    await Promise.allSettled([...this.sending]);
    const uploadId = await this.uploadId.catch(() => undefined);
    if (uploadId === undefined) return;
    await this.s3.send(
      new AbortMultipartUploadCommand({
        Bucket: this.target.bucket,
        Key: this.target.key,
        UploadId: uploadId,
      }),
    );
  }

  private async send(partNumber: number, bytes: Uint8Array): Promise<void> {
    const digest = createHash("sha256").update(bytes).digest();
    const command = new UploadPartCommand({
      Bucket: this.target.bucket,
      Key: this.target.key,
      UploadId: await this.uploadId,
      PartNumber: partNumber,
      Body: bytes,
      ContentLength: bytes.byteLength,
      ChecksumAlgorithm: "SHA256",
      // Given, the SDK does not hash the part again for the checksum.
      ChecksumSHA256: digest.toString("base64"),
    });
    signWithPayloadHash(command, digest.toString("hex"));
    const result = await this.s3.send(command, { abortSignal: this.cancel.signal });
    this.parts.push({
      PartNumber: partNumber,
      ETag: result.ETag,
      // As S3 echoes it: CompleteMultipartUpload must list each part's checksum of an upload created
      // with one. (fauxqs echoes none, and checks none.)
      ...(result.ChecksumSHA256 && { ChecksumSHA256: result.ChecksumSHA256 }),
    });
  }
}

/**
 * SigV4 signs an UploadPart with the SHA-256 of its body (x-amz-content-sha256), which S3 checks
 * too. It is the part's checksum in hex: given here, the signer does not hash the part a third time.
 */
function signWithPayloadHash(command: UploadPartCommand, sha256Hex: string): void {
  command.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers["x-amz-content-sha256"] = sha256Hex;
      return next(args);
    },
    { step: "build", name: "partPayloadHash" },
  );
}
