import { ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";

/**
 * Whether the claim-pack zip is in the staging bucket. A listing, not a HEAD: both functions may
 * list `packs/` only (infra), and a HEAD of a missing key without ListBucket on the whole bucket
 * answers 403, which would not tell "not built" from "refused". A multipart upload is listed only
 * once complete, so a zip being written counts as not there.
 */
export async function zipExists(s3: S3Client, bucket: string, key: string): Promise<boolean> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: key, MaxKeys: 1 }));
  return listed.Contents?.[0]?.Key === key;
}
