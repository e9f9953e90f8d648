/**
 * A clip as a playable MP4 file without the HTTP server, for tests elsewhere that need real
 * video (a report's page, a browser): the same video and layout the simulator serves for the clip,
 * without the padding a bitrate adds.
 */
import { mp4Chunks, planMp4 } from "./mp4.js";
import type { ClipSpec } from "./video/clip-frames.js";
import { clipVideos } from "./video/clip-videos.js";

export async function encodeClip(spec: ClipSpec): Promise<Buffer> {
  const plan = planMp4({
    video: await clipVideos.video(spec),
    // No bitrate: the file is the video alone, so neither seed nor key shapes any byte.
    bitrateBitsPerSecond: 0,
    startMs: spec.startMs,
    contentKey: [],
    seed: 0,
  });
  return Buffer.concat([...mp4Chunks(plan)]);
}
