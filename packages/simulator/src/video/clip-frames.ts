/**
 * What a simulated playback clip shows, frame by frame: the channel, the device id, and the
 * recording's wall-clock time in the fleet's time, advancing through the clip, over a progress
 * bar. Frames are painted straight into I420 (Y plane, then quarter-size U and V planes), the
 * encoder's native input, so no RGB conversion is spent on them.
 */
import { CELL_WIDTH, GLYPH_HEIGHT, GLYPH_WIDTH, glyphFor } from "./font.js";

/** Everything a clip's pictures depend on, so also what identifies its encoded video. */
export interface ClipSpec {
  deviceid: string;
  /** Counted from 1. */
  channel: number;
  /** The first instant of the clip, epoch ms. */
  startMs: number;
  durationMinutes: number;
  /** The fleet's time the clock shows, minutes east of UTC (the offset the request was written in). */
  utcOffsetMinutes: number;
}

export interface FrameTiming {
  /** From the start of the clip. */
  offsetMs: number;
  durationMs: number;
}

export const FRAME_WIDTH = 320;
export const FRAME_HEIGHT = 240;
export const I420_FRAME_BYTES = (FRAME_WIDTH * FRAME_HEIGHT * 3) / 2;

/**
 * Encoding costs a few milliseconds per frame, and a clip must be ready well within a client's
 * response timeout (the evidence tests allow 500 ms). Up to this many frames a clip shows one
 * frame per second; longer clips show one every few seconds (15 s for 30 minutes), so every clip
 * costs at most this many frames.
 */
const MAX_FRAMES = 120;

/** When each frame starts and how long it stays: together exactly the clip's duration. */
export function frameTimings(spec: ClipSpec): FrameTiming[] {
  const durationMs = spec.durationMinutes * 60_000;
  const frameMs = Math.ceil(durationMs / 1000 / MAX_FRAMES) * 1000;
  const timings: FrameTiming[] = [];
  for (let offsetMs = 0; offsetMs < durationMs; offsetMs += frameMs) {
    timings.push({ offsetMs, durationMs: Math.min(frameMs, durationMs - offsetMs) });
  }
  return timings;
}

// Limited-range BT.601 levels: what H.264 players expect by default.
const BACKGROUND_LUMA = 40;
const TEXT_LUMA = 235;
const LABEL_LUMA = 150;
const NEUTRAL_CHROMA = 128;
const BAND_HEIGHT = 40;
const MARGIN = 8;
/** Chroma (U, V) of each channel's band, so that channels differ at a glance. */
const CHANNEL_CHROMA: readonly (readonly [number, number])[] = [
  [90, 200], // red
  [80, 80], // green
  [200, 110], // blue
  [60, 150], // orange
  [170, 170], // purple
  [170, 70], // teal
  [100, 110], // olive
  [150, 210], // pink
];

/** Paints the frame shown `offsetMs` into the clip into `target` (I420_FRAME_BYTES long). */
export function paintFrame(spec: ClipSpec, offsetMs: number, target: Uint8Array): void {
  const luma = target.subarray(0, FRAME_WIDTH * FRAME_HEIGHT);
  luma.fill(BACKGROUND_LUMA);
  target.fill(NEUTRAL_CHROMA, luma.length);
  paintBand(spec.channel, target);

  const wallClock = new Date(spec.startMs + offsetMs + spec.utcOffsetMinutes * 60_000).toISOString();
  paintText(luma, `CH ${spec.channel}`, MARGIN, 6, 4, TEXT_LUMA);
  paintText(luma, "DEVICE", MARGIN, 52, 2, LABEL_LUMA);
  paintText(luma, spec.deviceid, MARGIN, 72, fittingScale(spec.deviceid, 3), TEXT_LUMA);
  paintText(luma, wallClock.slice(0, 10), MARGIN, 108, 3, TEXT_LUMA);
  paintText(luma, wallClock.slice(11, 19), MARGIN, 140, 5, TEXT_LUMA);
  paintText(luma, `UTC${utcOffsetText(spec.utcOffsetMinutes)}`, MARGIN, 188, 2, LABEL_LUMA);
  const progress = offsetMs / (spec.durationMinutes * 60_000);
  fillLuma(luma, 0, FRAME_HEIGHT - 12, Math.round(FRAME_WIDTH * progress), 8, LABEL_LUMA);
}

function paintBand(channel: number, target: Uint8Array): void {
  const [u, v] = CHANNEL_CHROMA[(channel - 1) % CHANNEL_CHROMA.length] as readonly [number, number];
  const chromaWidth = FRAME_WIDTH / 2;
  const uPlane = FRAME_WIDTH * FRAME_HEIGHT;
  const vPlane = uPlane + chromaWidth * (FRAME_HEIGHT / 2);
  target.fill(u, uPlane, uPlane + chromaWidth * (BAND_HEIGHT / 2));
  target.fill(v, vPlane, vPlane + chromaWidth * (BAND_HEIGHT / 2));
}

/** The largest scale up to `largest` at which the text fits the frame's width. */
function fittingScale(text: string, largest: number): number {
  const fits = Math.floor((FRAME_WIDTH - 2 * MARGIN) / (text.length * CELL_WIDTH));
  return Math.max(1, Math.min(largest, fits));
}

/** Draws text with its top-left corner at (x, y), each font pixel `scale` pixels square; clipped at the frame's edge. */
function paintText(luma: Uint8Array, text: string, x: number, y: number, scale: number, level: number): void {
  for (const [index, character] of [...text].entries()) {
    const left = x + index * CELL_WIDTH * scale;
    if (left + GLYPH_WIDTH * scale > FRAME_WIDTH) return;
    const glyph = glyphFor(character);
    for (let row = 0; row < GLYPH_HEIGHT; row++) {
      for (let column = 0; column < GLYPH_WIDTH; column++) {
        if (glyph[row * GLYPH_WIDTH + column]) {
          fillLuma(luma, left + column * scale, y + row * scale, scale, scale, level);
        }
      }
    }
  }
}

function fillLuma(
  luma: Uint8Array,
  x: number,
  y: number,
  width: number,
  height: number,
  level: number,
): void {
  for (let row = y; row < Math.min(y + height, FRAME_HEIGHT); row++) {
    luma.fill(level, row * FRAME_WIDTH + x, row * FRAME_WIDTH + Math.min(x + width, FRAME_WIDTH));
  }
}

/** "+05:30", "-08:00". */
function utcOffsetText(minutes: number): string {
  const magnitude = Math.abs(minutes);
  const hours = String(Math.floor(magnitude / 60)).padStart(2, "0");
  return `${minutes < 0 ? "-" : "+"}${hours}:${String(magnitude % 60).padStart(2, "0")}`;
}
