import * as z from "zod";

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
 * `manifest.json` beside the clips: everything an insurer needs to trust them. It is written last,
 * so its presence with status `complete` means every clip it lists is stored and verified.
 */
export const manifestSchema = z.object({
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
export type EvidenceManifest = z.output<typeof manifestSchema>;
