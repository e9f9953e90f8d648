import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { S3Client } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { S3_MIN_PART_BYTES } from "../../../packages/core/src/aws-limits.js";
import { MultipartUpload } from "../../../packages/core/src/evidence/multipart-upload.js";
import { S3EvidenceStore } from "../../../packages/core/src/evidence/s3-evidence-store.js";

/*
 * The checksum headers of the clip upload, on the wire as the real SDK v3 client builds and signs
 * them. A stub HTTP handler answers as S3 does, because fauxqs neither checks nor echoes checksums
 * (what fauxqs can show, storing and aborting, is tested on it in s3-evidence-store.test.ts).
 */

interface SentRequest {
  method: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: Buffer;
}

const xml = (text: string) => Readable.from([Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>${text}`)]);

/** An S3 client whose requests go to a stub that answers as S3 would, echoing each part's checksum. */
function stubbedS3(options: { refusePart?: number } = {}) {
  const requests: SentRequest[] = [];
  const requestHandler = {
    metadata: { handlerProtocol: "http/1.1" },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
    handle: async (request: {
      method: string;
      query?: Record<string, unknown>;
      headers: Record<string, string>;
      body?: unknown;
    }) => {
      const query = request.query ?? {};
      // Copied at once: the uploader reuses its part buffers.
      const body =
        typeof request.body === "string"
          ? Buffer.from(request.body)
          : request.body instanceof Uint8Array
            ? Buffer.from(request.body)
            : Buffer.alloc(0);
      requests.push({ method: request.method, query, headers: { ...request.headers }, body });
      const ok = (headers: Record<string, string>, text?: string) => ({
        response: { statusCode: 200, headers, body: text === undefined ? Readable.from([]) : xml(text) },
      });
      if (request.method === "POST" && "uploads" in query)
        return ok(
          {},
          "<InitiateMultipartUploadResult><UploadId>upload-1</UploadId></InitiateMultipartUploadResult>",
        );
      if (request.method === "PUT" && query.partNumber !== undefined) {
        if (Number(query.partNumber) === options.refusePart)
          return {
            response: {
              statusCode: 403,
              headers: {},
              body: xml("<Error><Code>AccessDenied</Code><Message>no</Message></Error>"),
            },
          };
        return ok({
          etag: `"etag-${query.partNumber}"`,
          "x-amz-checksum-sha256": request.headers["x-amz-checksum-sha256"] ?? "",
        });
      }
      if (request.method === "POST" && query.uploadId !== undefined)
        return ok({}, '<CompleteMultipartUploadResult><ETag>"whole"</ETag></CompleteMultipartUploadResult>');
      if (request.method === "PUT" && request.headers["x-amz-copy-source"])
        return ok({}, '<CopyObjectResult><ETag>"copy"</ETag></CopyObjectResult>');
      if (request.method === "DELETE")
        return { response: { statusCode: 204, headers: {}, body: Readable.from([]) } };
      throw new Error(`unexpected ${request.method} ${JSON.stringify(query)}`);
    },
  };
  const s3 = new S3Client({
    region: "us-east-1",
    endpoint: "http://s3.stub.invalid",
    forcePathStyle: true,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
    requestHandler,
  });
  return { s3, requests };
}

const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest();

/** An MP4 (ftyp, mdat, moov) of a little over two parts, its media varying byte to byte. */
function clip(): Buffer {
  const media = Buffer.alloc(2 * S3_MIN_PART_BYTES + 4_096);
  for (let at = 0; at < media.length; at += 4) media.writeUInt32BE(at, at);
  const box = (type: string, payload: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + payload.length);
    head.write(type, 4, "latin1");
    return Buffer.concat([head, payload]);
  };
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(5000, 16);
  return Buffer.concat([
    box("ftyp", Buffer.from("isom\0\0\0\0", "latin1")),
    box("mdat", media),
    box("moov", box("mvhd", mvhd)),
  ]);
}

describe("checksums of the clip upload (stubbed S3)", () => {
  it("creates the upload for SHA-256, sends each part with its digest, and completes with S3's echo of each", async () => {
    const { s3, requests } = stubbedS3();
    const bytes = clip();
    await new S3EvidenceStore(s3, { evidence: "evidence", staging: "staging" }).storeClip(
      "evidence/x/ch1.mp4",
      Readable.from([bytes]),
      {},
    );
    const [create, ...rest] = requests;
    expect(create?.headers["x-amz-checksum-algorithm"]).toBe("SHA256");

    const parts = rest.filter((request) => request.query.partNumber !== undefined);
    expect(parts.map((part) => part.body.length)).toEqual([
      S3_MIN_PART_BYTES,
      S3_MIN_PART_BYTES,
      bytes.length - 2 * S3_MIN_PART_BYTES,
    ]);
    expect(Buffer.concat(parts.map((part) => part.body)).equals(bytes)).toBe(true);
    for (const part of parts) {
      // S3 checks the part against both: the checksum (BadDigest) and the signed payload hash.
      expect(part.headers["x-amz-checksum-sha256"]).toBe(digest(part.body).toString("base64"));
      expect(part.headers["x-amz-content-sha256"]).toBe(digest(part.body).toString("hex"));
      expect(part.headers.authorization).toContain("x-amz-content-sha256");
    }

    const complete = rest.find((request) => request.method === "POST");
    const listed = [...(complete?.body.toString("utf8") ?? "").matchAll(/<Part>(.*?)<\/Part>/g)].map(
      ([, part]) => part,
    );
    expect(listed).toEqual(
      parts.map(
        (part, index) =>
          `<ETag>&quot;etag-${index + 1}&quot;</ETag><ChecksumSHA256>${digest(part.body).toString("base64")}</ChecksumSHA256><PartNumber>${index + 1}</PartNumber>`,
      ),
    );
    const copy = rest.find((request) => request.headers["x-amz-copy-source"]);
    expect(copy?.headers["x-amz-checksum-algorithm"]).toBe("SHA256");
  });

  it("aborts the upload when S3 refuses a part, once the part under way has settled, and completes nothing", async () => {
    const { s3, requests } = stubbedS3({ refusePart: 2 });
    const error = await new S3EvidenceStore(s3, { evidence: "evidence", staging: "staging" })
      .storeClip("evidence/y/ch1.mp4", Readable.from([clip()]), {})
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "AccessDenied" });
    const operations = requests.map((request) =>
      request.query.partNumber !== undefined ? `part ${request.query.partNumber}` : request.method,
    );
    expect(operations).toEqual(["POST", "part 1", "part 2", "DELETE"]);
    expect(requests.at(-1)?.query.uploadId).toBe("upload-1");
  });

  it("refuses a part beyond S3's 10,000", async () => {
    const { s3 } = stubbedS3();
    const upload = new MultipartUpload(s3, { bucket: "staging", key: "k", contentType: "video/mp4" });
    await expect(upload.uploadPart(10_001, Buffer.from("x"))).rejects.toThrow(/more than 10000 parts/);
    await upload.abort();
  });
});
