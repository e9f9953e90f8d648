import { GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { awsJson } from "@fleet-alerts/core/aws-text";
import type { ClaimPackJob } from "@fleet-alerts/core/evidence";
import { type JobQueue, sendEvery } from "@fleet-alerts/core/queue";
import { zipExists } from "../../claim-pack/zip-object.js";
import { PRESIGN_SECONDS } from "./evidence-objects.js";

/**
 * The claim-pack zips in the staging bucket as the incident page sees them: is one there, a
 * download link to it, and a job asking the evidence function to build it. Keys come from the
 * alert's own record (`claimPackZipKey`), never from a request.
 */
export class ClaimPackZips {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly evidenceQueue: JobQueue,
  ) {}

  exists(key: string): Promise<boolean> {
    return zipExists(this.s3, this.bucket, key);
  }

  /** A presigned GET that saves the zip as `fileName` (a bag folder name: letters, digits, `.`, `_`, `-`). */
  presign(key: string, fileName: string): Promise<string> {
    const download = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: `attachment; filename="${fileName}"`,
      ResponseContentType: "application/zip",
    });
    return getSignedUrl(this.s3, download, { expiresIn: PRESIGN_SECONDS });
  }

  /** Duplicates are harmless: the builder keeps a zip that is there. */
  request(alertId: string): Promise<void> {
    const job: ClaimPackJob = { kind: "claim-pack", version: 1, alertId };
    return sendEvery(this.evidenceQueue, [{ body: awsJson(job) }]);
  }
}
