/**
 * Encodes a clip's frames to H.264 with h264-mp4-encoder (WebAssembly) on the calling thread,
 * yielding to the event loop after every frame: a frame costs about 1.5 ms, so the HTTP server
 * keeps answering while a clip is encoded, and no worker thread is needed. A worker would run
 * TypeScript only through a loader of its own (tsx) and take about 0.3 s to start, which the
 * first clip would wait for; clients such as the evidence tests give a playback 0.5 s to answer.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import HME from "h264-mp4-encoder";
import {
  type ClipSpec,
  FRAME_HEIGHT,
  FRAME_WIDTH,
  frameTimings,
  I420_FRAME_BYTES,
  paintFrame,
} from "./clip-frames.js";
import { type EncodedVideo, readEncoderOutput } from "./encoder-output.js";

/** The encoder's fastest setting: the pictures are flat text, quality has nothing to gain. */
const FASTEST = 10;
/** An IDR frame every 10 frames, so that a player can start (seek) anywhere within 10 frames. */
const KEYFRAME_INTERVAL = 10;

/** Encoders share one in-memory file system: each writes a file of its own. */
let outputFiles = 0;

export async function encodeClipVideo(spec: ClipSpec): Promise<EncodedVideo> {
  const timings = frameTimings(spec);
  const encoder = await HME.createH264MP4Encoder();
  try {
    encoder.width = FRAME_WIDTH;
    encoder.height = FRAME_HEIGHT;
    // The file the simulator serves carries its own sample durations; this only names a rate.
    encoder.frameRate = 1;
    encoder.speed = FASTEST;
    encoder.groupOfPictures = KEYFRAME_INTERVAL;
    encoder.outputFilename = `clip-${++outputFiles}.mp4`;
    encoder.initialize();
    const frame = new Uint8Array(I420_FRAME_BYTES);
    for (const timing of timings) {
      paintFrame(spec, timing.offsetMs, frame);
      encoder.addFrameYuv(frame);
      await nextTurn();
    }
    encoder.finalize();
    const output = encoder.FS.readFile(encoder.outputFilename);
    encoder.FS.unlink(encoder.outputFilename);
    return { ...readEncoderOutput(output), sampleDurationsMs: timings.map((timing) => timing.durationMs) };
  } finally {
    encoder.delete();
  }
}
