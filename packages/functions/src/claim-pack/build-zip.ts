import type { S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { Observer } from "@fleet-alerts/core";
import type { AlertRecord } from "@fleet-alerts/core/alerts";
import { S3_MIN_PART_BYTES } from "@fleet-alerts/core/aws-limits";
import { bagFolderName, type ClaimPackJob, claimPackZipKey, openS3Bag } from "@fleet-alerts/core/evidence";
import { parseAlertId } from "@fleet-alerts/core/share";
import { bagPrefixOf, NoBagError, withBag } from "./alert-bag.js";
import { zipExists } from "./zip-object.js";
import { zipBag } from "./zip-writer.js";

/** The zip's upload parts: S3's smallest, so that each part held in memory is as small as S3 allows. */
export const CLAIM_PACK_PART_BYTES = S3_MIN_PART_BYTES;
/**
 * Parts uploading at once; with the part being filled, the zip costs (2 + 1) × 5 MiB of memory
 * whatever the bag's size. Two keep S3 busy while the next part fills; more would only hurry a job
 * nobody waits on (the page reloads every 15 s), in the function whose clip downloads peak near 100 MiB.
 */
export const CLAIM_PACK_PARTS_IN_FLIGHT = 2;

export interface ClaimPackZipDeps {
  s3: S3Client;
  alerts: { get(account: string, serialno: bigint, ruleId: string): Promise<AlertRecord | undefined> };
  evidenceBucket: string;
  stagingBucket: string;
  observer: Observer;
}

/**
 * An alert's claim pack as one zip in the staging bucket, for the incident page's download: the bag
 * as `evidence pack` reads it (every object under the evidence prefix, the timestamp token among
 * them), streamed through the zip writer into a multipart upload, so memory holds a few parts and
 * never the zip (CLAIM_PACK_PARTS_IN_FLIGHT). S3 shows the object only once the upload completes: no partial zip is ever served.
 * A zip already there is kept, so a job delivered twice, or asked for twice, builds one.
 */
export async function buildClaimPackZip(job: ClaimPackJob, deps: ClaimPackZipDeps): Promise<void> {
  const { account, serialno, ruleId } = parseAlertId(job.alertId);
  const record = await deps.alerts.get(account, serialno, ruleId);
  if (!record) throw new NoBagError("unknown-alert", `no alert ${job.alertId}`);
  const prefix = bagPrefixOf(job.alertId, record);
  const key = claimPackZipKey(prefix);
  const zipped = (built: boolean) =>
    deps.observer.observe({
      type: "claim-pack-zipped",
      account,
      alertId: job.alertId,
      serialno: serialno.toString(),
      rule: ruleId,
      deviceid: record.deviceid,
      key,
      built,
    });
  if (await zipExists(deps.s3, deps.stagingBucket, key)) return zipped(false);
  const source = await withBag(await openS3Bag(deps.s3, deps.evidenceBucket, prefix), job.alertId);
  try {
    await new Upload({
      client: deps.s3,
      params: {
        Bucket: deps.stagingBucket,
        Key: key,
        Body: zipBag(source, bagFolderName(job.alertId)),
        ContentType: "application/zip",
      },
      partSize: CLAIM_PACK_PART_BYTES,
      queueSize: CLAIM_PACK_PARTS_IN_FLIGHT,
    }).done();
  } finally {
    await source.close();
  }
  zipped(true);
}
