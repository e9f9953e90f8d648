import type { Readable } from "node:stream";
import { GetObjectCommand, paginateListObjectsV2, type S3Client } from "@aws-sdk/client-s3";
import { type BagFile, type BagSource, byPath, listedFile, readAll } from "./source.js";

/**
 * A bag stored in S3: every object under `prefix` (the evidence prefix, ending in `/`), each read
 * as a stream when it is opened.
 */
export async function openS3Bag(s3: S3Client, bucket: string, prefix: string): Promise<BagSource> {
  const files: BagFile[] = [];
  for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: bucket, Prefix: prefix })) {
    for (const object of page.Contents ?? []) {
      // A key ending in "/" is a console-made folder marker, not a file.
      if (object.Key === undefined || object.Key.endsWith("/")) continue;
      files.push({
        path: object.Key.slice(prefix.length),
        size: object.Size ?? 0,
        ...(object.LastModified && { modified: object.LastModified }),
      });
    }
  }
  files.sort(byPath);
  const open = async (path: string): Promise<Readable> => {
    const key = prefix + listedFile(source, path).path;
    const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    // In Node.js the SDK's body is a Readable.
    return Body as Readable;
  };
  const source: BagSource = {
    location: `s3://${bucket}/${prefix}`,
    files,
    open,
    read: async (path) => readAll(await open(path)),
    close: async () => undefined,
  };
  return source;
}
