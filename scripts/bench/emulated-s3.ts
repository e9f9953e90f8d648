import { S3Client } from "@aws-sdk/client-s3";

/** An S3 client of fauxqs at `endpoint`, as the benchmark's own processes reach it (path-style, test keys). */
export function emulatedS3(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    forcePathStyle: true,
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
}
