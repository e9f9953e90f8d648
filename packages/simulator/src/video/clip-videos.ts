/**
 * The encoded video of each clip, encoded when first asked for and kept for the next request:
 * clients retry, and the evidence benchmark fetches the same clip twice. One store serves every
 * simulator in the process, since a clip's video depends only on what its frames show (the
 * ClipSpec), never on a simulator's seed or state.
 */

import { encodeClipVideo } from "./clip-encoder.js";
import type { ClipSpec } from "./clip-frames.js";
import type { EncodedVideo } from "./encoder-output.js";

/** Clips kept. An encoded clip is 30 to 80 KB, so this holds at most about 10 MB. */
const CAPACITY = 128;

export class ClipVideoStore {
  /** Least recently used first; a pending encode is stored too, so that a second request waits for it. */
  private readonly videos = new Map<string, Promise<EncodedVideo>>();
  /** Encodes run one at a time, in the order asked: the first clip asked for is the first ready. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly encode: (spec: ClipSpec) => Promise<EncodedVideo>,
    private readonly capacity: number,
  ) {}

  video(spec: ClipSpec): Promise<EncodedVideo> {
    const key = JSON.stringify([
      spec.deviceid,
      spec.channel,
      spec.startMs,
      spec.durationMinutes,
      spec.utcOffsetMinutes,
    ]);
    const known = this.videos.get(key);
    if (known) {
      this.videos.delete(key);
      this.videos.set(key, known);
      return known;
    }
    const encoded = this.queue.then(() => this.encode(spec));
    this.queue = encoded.catch(() => undefined);
    // A failed encode is not kept: the next request tries again.
    encoded.catch(() => this.videos.get(key) === encoded && this.videos.delete(key));
    this.videos.set(key, encoded);
    if (this.videos.size > this.capacity) this.videos.delete(this.videos.keys().next().value as string);
    return encoded;
  }
}

export const clipVideos = new ClipVideoStore(encodeClipVideo, CAPACITY);
