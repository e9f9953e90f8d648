/**
 * Local MP4 playback download (endpoint 8):
 * GET /dlplayback/:deviceid(@chs)/:duration/:timestamp/:username/:password/:fileName?
 *
 * Checks, in this order: path shape and percent-encoding (400), credentials (401), device (404),
 * channel selector, duration, timestamp and file name (400), then whether any requested minute
 * has video (404 `no_recording`). Choices where the spec is silent:
 * - without `@chs` the clip is channel 1;
 * - a clip is served as long as at least one of its minutes has video; it always has the full
 *   requested duration;
 * - the clock in the pictures shows the fleet's time as the request wrote it: the timestamp's
 *   offset is the one the client works in (the evidence worker writes the fleet's offset);
 * - response headers: Content-Type video/mp4, Content-Length, and Content-Disposition naming the
 *   fileName when one is given.
 */
import type { Accounts } from "./auth.js";
import { HttpError } from "./http.js";
import { type Mp4Plan, planMp4 } from "./mp4.js";
import type { Simulation } from "./simulation.js";
import { MINUTE_MS, parsePlaybackTimestamp } from "./time.js";
import type { ClipSpec } from "./video/clip-frames.js";
import type { EncodedVideo } from "./video/encoder-output.js";

/** A playback response the simulator served or is serving; updated live while streaming. */
export interface PlaybackRecord {
  deviceid: string;
  channel: number;
  durationMinutes: number;
  start: Date;
  /** Content-Length announced. */
  totalBytes: number;
  /** Bytes handed to the socket so far. */
  bytesWritten: number;
  finished: boolean;
  /** The client went away before the end. */
  aborted: boolean;
  /** A playbackCut fault ended the response early. */
  cut: boolean;
}

export interface PlaybackPlan {
  plan: Mp4Plan;
  record: PlaybackRecord;
  fileName: string | undefined;
}

export interface PlaybackContext {
  simulation: Simulation;
  accounts: Accounts;
  bitrates: readonly number[];
  seed: number;
  /** The clip's H.264 video (encoded, or remembered from an earlier request). */
  clipVideo: (spec: ClipSpec) => Promise<EncodedVideo>;
}

const MAX_DURATION_MINUTES = 30;

/**
 * `segmentsText` is the path after `/dlplayback/`, still percent-encoded. Resolves once the
 * clip's video is encoded: the file's index, at its start, needs the size of every frame.
 */
export async function preparePlayback(segmentsText: string, context: PlaybackContext): Promise<PlaybackPlan> {
  const [target, durationText, timestampText, username, password, fileName, ...extra] =
    decodeSegments(segmentsText);
  if (
    target === undefined ||
    durationText === undefined ||
    timestampText === undefined ||
    username === undefined ||
    password === undefined ||
    extra.length > 0
  ) {
    throw new HttpError(
      400,
      "bad_path",
      "expected /dlplayback/:deviceid(@chs)/:duration/:timestamp/:username/:password/:fileName?",
    );
  }
  context.accounts.authenticate(username, password);

  const at = target.lastIndexOf("@");
  const deviceid = at === -1 ? target : target.slice(0, at);
  const device = context.simulation.device(deviceid);
  if (!device) throw new HttpError(404, "unknown_device", `device ${deviceid} is not registered`);

  const channel = at === -1 ? 1 : channelFromSelector(target.slice(at + 1));
  if (channel > device.profile.channels) {
    throw new HttpError(400, "invalid_channel", `the device has ${device.profile.channels} channel(s)`);
  }
  const durationMinutes = /^\d+$/.test(durationText) ? Number(durationText) : Number.NaN;
  if (!(durationMinutes >= 1 && durationMinutes <= MAX_DURATION_MINUTES)) {
    throw new HttpError(400, "invalid_duration", "duration must be a whole number of minutes from 1 to 30");
  }
  const timestamp = parsePlaybackTimestamp(timestampText);
  if (timestamp === undefined) {
    throw new HttpError(
      400,
      "invalid_timestamp",
      "timestamp must be YYYY-MM-DDTHH:mm:ss followed by +hhmm or -hhmm",
    );
  }
  if (fileName !== undefined && !/^[^/\\\0]{1,251}\.mp4$/i.test(fileName)) {
    throw new HttpError(400, "invalid_file_name", "fileName must be a plain file name ending in .mp4");
  }

  const startMs = timestamp.epochMs;
  const firstMinute = Math.floor(startMs / MINUTE_MS);
  const endMinute = Math.ceil((startMs + durationMinutes * MINUTE_MS) / MINUTE_MS);
  if (!device.recordings.hasVideo(firstMinute, endMinute)) {
    throw new HttpError(404, "no_recording", "the device has no recording in the requested period");
  }

  const bitrate = context.bitrates[channel - 1] ?? (context.bitrates.at(-1) as number);
  const video = await context.clipVideo({
    deviceid,
    channel,
    startMs,
    durationMinutes,
    utcOffsetMinutes: timestamp.utcOffsetMinutes,
  });
  const plan = planMp4({
    video,
    bitrateBitsPerSecond: bitrate,
    startMs,
    seed: context.seed,
    contentKey: [deviceid, channel, startMs],
  });
  return {
    plan,
    fileName,
    record: {
      deviceid,
      channel,
      durationMinutes,
      start: new Date(startMs),
      totalBytes: plan.totalBytes,
      bytesWritten: 0,
      finished: false,
      aborted: false,
      cut: false,
    },
  };
}

/** Splits on "/" first, then decodes each segment, so an encoded "/" (%2F) stays inside its segment. */
function decodeSegments(segmentsText: string): string[] {
  const segments = segmentsText.split("/");
  // A trailing slash with no file name is treated as no file name.
  if (segments.length === 6 && segments[5] === "") segments.pop();
  try {
    return segments.map((segment) => decodeURIComponent(segment));
  } catch {
    throw new HttpError(400, "bad_path", "a path segment is not valid percent-encoding");
  }
}

/** The selector is decimal with exactly one bit set; bit N-1 is channel N. */
function channelFromSelector(selector: string): number {
  const value = /^\d{1,3}$/.test(selector) ? Number(selector) : 0;
  if (value === 0 || (value & (value - 1)) !== 0) {
    throw new HttpError(
      400,
      "invalid_channel",
      "the channel selector must be a decimal number with exactly one bit set",
    );
  }
  return Math.log2(value) + 1;
}
