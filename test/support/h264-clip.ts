import { createRequire } from "node:module";
import type { createH264MP4Encoder } from "h264-mp4-encoder";

// The encoder is the simulator's dependency: resolve it from there, as the simulator does.
const requireFromSimulator = createRequire(new URL("../../packages/simulator/package.json", import.meta.url));
const { createH264MP4Encoder: createEncoder } = requireFromSimulator("h264-mp4-encoder") as {
  createH264MP4Encoder: typeof createH264MP4Encoder;
};

export interface TestClip {
  seconds: number;
  /** Low rates keep a minute small: 2 fps for 60 s of these plain frames is under 10 KB. */
  framesPerSecond?: number;
  /** The background, one per channel, so a screenshot tells the players apart. */
  rgb: readonly [number, number, number];
}

const WIDTH = 320;
const HEIGHT = 240;

/**
 * A real H.264 MP4 (320×240) a browser plays: a plain background with a white bar that crosses the
 * frame once over the clip, so its first frame and its progress are visible. Its MP4 header states
 * `seconds` exactly (frames ÷ rate). Encoders share one virtual file system: encode one at a time.
 */
export async function encodeTestClip({ seconds, framesPerSecond = 2, rgb }: TestClip): Promise<Uint8Array> {
  const encoder = await createEncoder();
  try {
    Object.assign(encoder, { width: WIDTH, height: HEIGHT, frameRate: framesPerSecond });
    encoder.initialize();
    const plain = background(rgb);
    const frames = seconds * framesPerSecond;
    for (let frame = 0; frame < frames; frame++) encoder.addFrameRgba(withBar(plain, frame / frames));
    encoder.finalize();
    return encoder.FS.readFile(encoder.outputFilename);
  } finally {
    encoder.delete();
  }
}

function background([red, green, blue]: readonly [number, number, number]): Uint8Array {
  const pixels = new Uint8Array(WIDTH * HEIGHT * 4);
  for (let offset = 0; offset < pixels.length; offset += 4) pixels.set([red, green, blue, 255], offset);
  return pixels;
}

/** The background with a 16×40 white bar at `progress` (0 to 1) of the way across, mid-height. */
function withBar(plain: Uint8Array, progress: number): Uint8Array {
  const pixels = plain.slice();
  const left = Math.round(progress * (WIDTH - 16));
  for (let y = HEIGHT / 2 - 20; y < HEIGHT / 2 + 20; y++) {
    pixels.fill(255, (y * WIDTH + left) * 4, (y * WIDTH + left + 16) * 4);
  }
  return pixels;
}
