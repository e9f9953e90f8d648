import * as z from "zod";
import { footageRequestSchema } from "./request-custody.js";

const clipSchema = z.object({
  key: z.string(),
  channel: z.number().int(),
  /** Position of this clip in the window, from 0, when the window needs several requests. */
  part: z.number().int().nonnegative(),
  startMs: z.number(),
  durationMinutes: z.number().int(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** From the MP4's own movie header. */
  mp4DurationMs: z.number().optional(),
  /** When the verified clip was stored (the download complete). */
  fetchedAt: z.string(),
  /** The playback request as sent, the password segment replaced by [redacted]. */
  playback: z.object({
    url: z.string(),
    timestamp: z.string(),
    channel: z.number().int(),
    durationMinutes: z.number().int(),
  }),
});
export type ManifestClip = z.output<typeof clipSchema>;

/**
 * Why an evidence set has no track: a /api/gps failure as the poller's lookups name it (`disabled`:
 * the account never calls /api/gps), or a service answer with no plausible point in the window.
 */
export const TRACK_GAPS = [
  "disabled",
  "timeout",
  "failed",
  "malformed",
  "empty",
  "no-point-in-window",
] as const;

export const manifestTrackSchema = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("stored"),
    key: z.string(),
    /** Of the stored bytes: a replay may rewrite the track, and writes the manifest after it. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    bytes: z.number().int().nonnegative(),
    /** GPS points in the window (the LineString's positions). */
    points: z.number().int().positive(),
    /** The S3 version written, where the bucket keeps versions: the one these bytes are. */
    versionId: z.string().optional(),
  }),
  z.object({ status: z.literal("unavailable"), reason: z.enum(TRACK_GAPS) }),
]);
export type ManifestTrack = z.output<typeof manifestTrackSchema>;
export type TrackGap = (typeof TRACK_GAPS)[number];

/** From the track, in km/h and metres; null without a track (or, at the event, without a point near it). */
export const speedSummarySchema = z.object({
  atEventKmh: z.number().nullable(),
  maxKmh: z.number().nullable(),
  /** The length of the track's path over the window. */
  distanceMeters: z.number().nullable(),
});
export type SpeedSummary = z.output<typeof speedSummarySchema>;

const manifestV1Schema = z.object({
  version: z.literal(1),
  status: z.literal("complete"),
  alert: z.object({ alertId: z.string(), account: z.string(), ruleId: z.string(), severity: z.string() }),
  event: z.record(z.string(), z.unknown()),
  window: z.object({
    startMs: z.number(),
    endMs: z.number(),
    secondsBefore: z.number(),
    secondsAfter: z.number(),
    utcOffset: z.string(),
  }),
  coverage: z.object({
    totalMinutes: z.number().int(),
    recordedMinutes: z.number().int(),
    partial: z.boolean(),
    missing: z.array(z.object({ startMs: z.number(), endMs: z.number() })),
  }),
  clips: z.array(clipSchema),
  /** Channels the rule asked for that the device does not have. */
  skippedChannels: z.array(z.number().int()).default([]),
  software: z.object({ name: z.string(), version: z.string() }),
  createdAt: z.string(),
});

/** Version 2 adds the GPS track (`track.geojson` beside the clips) and the speed summary. */
const manifestV2Schema = manifestV1Schema.extend({
  version: z.literal(2),
  track: manifestTrackSchema,
  speed: speedSummarySchema,
});

const storedFileSchema = z.object({
  key: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
});

/**
 * Version 3 is the custody record of a claim pack: the set is a BagIt bag (payload under `data/`),
 * the event as received is a file of its own, and each clip says when it was requested as well as
 * when it was stored (`fetchedAt`), by which function version.
 */
const manifestV3Schema = manifestV2Schema.extend({
  version: z.literal(3),
  clips: z.array(clipSchema.extend({ requestedAt: z.string() })),
  eventFile: storedFileSchema,
  /** The Lambda function version that stored the set ("local" in the local mode). */
  functionVersion: z.string(),
  /**
   * Footage asked for by hand: who asked, why and when. Optional, so that the version stays 3 and
   * every reader of an alert's custody record reads a request's alike.
   */
  request: footageRequestSchema.optional(),
});

/**
 * Footage given up because the vehicle stayed offline past the card's retention: when it was found
 * offline, the deadline waited until, and the retention (null: unknown, the stage's maximum wait
 * applied). "Overwritten" is inferred from the retention, never seen: nothing can be read off a card
 * that is offline.
 */
export const overwrittenFootageSchema = z.object({
  offlineSince: z.iso.datetime(),
  keptUntil: z.iso.datetime(),
  retentionDays: z.number().positive().nullable(),
});
export type OverwrittenFootage = z.output<typeof overwrittenFootageSchema>;

/** What became of the footage: fetched (whole or partly: `coverage` says), never recorded, or overwritten. */
export const footageSchema = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("recorded") }),
  z.object({ outcome: z.literal("not-recorded") }),
  overwrittenFootageSchema.extend({ outcome: z.literal("overwritten") }),
]);
export type Footage = z.output<typeof footageSchema>;

/**
 * Version 4 says what became of the footage (`footage`): a set without video may be one the
 * recorder never recorded, or one whose vehicle stayed offline until its card overwrote it.
 */
const manifestV4Schema = manifestV3Schema.extend({ version: z.literal(4), footage: footageSchema });

/**
 * `manifest.json` beside the clips: everything an insurer needs to trust them. It is written last,
 * so its presence with status `complete` means every clip it lists (and its track) is stored and
 * verified. Sets stored before the track came are version 1 and stay readable as they are; the
 * version says which fields to expect, rather than every reader guessing from what is missing.
 */
export const manifestSchema = z.discriminatedUnion("version", [
  manifestV1Schema,
  manifestV2Schema,
  manifestV3Schema,
  manifestV4Schema,
]);
/** A manifest as read: any version. */
export type EvidenceManifest = z.output<typeof manifestSchema>;
/** The version written now. */
export type CurrentManifest = z.output<typeof manifestV4Schema>;
/** The custody record of a claim pack (versions 3 and 4): its set is a BagIt bag. */
export type ClaimPackManifest = z.output<typeof manifestV3Schema> | CurrentManifest;

/** Sets since claim packs are bags; those stored before (versions 1 and 2) keep their layout. */
export function isClaimPackManifest(manifest: EvidenceManifest): manifest is ClaimPackManifest {
  return manifest.version >= 3;
}

/** What became of a claim pack's footage; a version 3 set says only whether it has video. */
export function footageOf(manifest: ClaimPackManifest): Footage {
  if (manifest.version === 4) return manifest.footage;
  return { outcome: manifest.clips.length > 0 ? "recorded" : "not-recorded" };
}

/** The objects a manifest lists beside itself: its clips, its event file and its track when one is stored. */
export function listedKeys(manifest: EvidenceManifest): string[] {
  const track = manifest.version !== 1 && manifest.track.status === "stored" ? [manifest.track.key] : [];
  const event = isClaimPackManifest(manifest) ? [manifest.eventFile.key] : [];
  return [...manifest.clips.map((clip) => clip.key), ...event, ...track];
}
