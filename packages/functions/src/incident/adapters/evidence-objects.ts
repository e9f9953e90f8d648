import { GetObjectCommand, NoSuchKey, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { AlertRecord } from "@fleet-alerts/core/alerts";
import {
  BAG_FILES,
  isClaimPackManifest,
  manifestSchema,
  trackGeoJsonSchema,
} from "@fleet-alerts/core/evidence";
import type { StoredEvidence } from "../incident-model.js";

// The ceiling: long enough to start a clip on a slow phone, short enough that a copied URL dies soon.
export const PRESIGN_SECONDS = 15 * 60;
const MANIFEST_NAME = BAG_FILES.custodyRecord;
// A settled set never changes: the record lists its custody record only once the set is settled,
// and its objects are written once under S3 Object Lock (infra/storage.ts). So a container keeps the
// sets it has read, by custody-record key, and a page seen again reads no object: the two GETs were
// about a third of a page's CPU (npm run bench). A set is a few kilobytes (the track's points).
export const SETS_KEPT = 100;

/**
 * The evidence bucket as the incident page reads it: an alert's custody record and track, and
 * presigned GETs. Every key comes from the alert's own record or manifest, never from a request.
 */
export class EvidenceObjects {
  readonly #settled = new Map<string, StoredEvidence>();

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  /** The alert's stored set, or undefined while it has none (or one older than manifest v3). */
  async stored(record: AlertRecord): Promise<StoredEvidence | undefined> {
    const manifestKey = manifestKeyOf(record);
    if (!manifestKey) return undefined;
    const kept = this.#settled.get(manifestKey);
    // Most recently used last: the oldest is the first to go.
    if (kept) this.#settled.delete(manifestKey);
    const set = kept ?? (await this.#read(manifestKey));
    if (!set) return undefined;
    this.#settled.set(manifestKey, set);
    if (this.#settled.size > SETS_KEPT) this.#settled.delete(this.#settled.keys().next().value as string);
    return set;
  }

  async #read(manifestKey: string): Promise<StoredEvidence | undefined> {
    const text = await this.#text(manifestKey);
    if (!text) return undefined;
    const manifest = manifestSchema.parse(JSON.parse(text));
    // Sets stored before claim packs lack the custody fields the page and the pack are built from.
    if (!isClaimPackManifest(manifest)) return undefined;
    const prefix = manifestKey.slice(0, -MANIFEST_NAME.length);
    const trackText = manifest.track.status === "stored" ? await this.#text(manifest.track.key) : undefined;
    const track = trackText === undefined ? undefined : trackGeoJsonSchema.parse(JSON.parse(trackText));
    return { manifest, prefix, ...(track && { track }) };
  }

  presign(key: string): Promise<string> {
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: PRESIGN_SECONDS,
    });
  }

  async #text(key: string): Promise<string | undefined> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return await object.Body?.transformToString("utf8");
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      throw error;
    }
  }
}

/** The evidence function lists the custody record first among the record's keys, once the set is settled. */
function manifestKeyOf(record: AlertRecord): string | undefined {
  if (record.evidenceStatus !== "stored" && record.evidenceStatus !== "unavailable") return undefined;
  return record.evidenceKeys?.find((key) => key.endsWith(`/${MANIFEST_NAME}`));
}
