import * as z from "zod";
import type { FleetClock } from "../text/fleet-clock.js";
import { plural } from "../text/words.js";

/**
 * A stretch a vehicle drove while its recorder kept no video, as the recorder audit (recorder/)
 * found it from the daily record map and the GPS history: what its "not recording" alert says.
 * `no-record`: the map shows nothing recorded (0); `gps-only`: only GPS was recorded (3), the
 * cameras were not; `mixed`: some of each.
 */
export const RECORDER_GAP_KINDS = ["no-record", "gps-only", "mixed"] as const;
export type RecorderGapKind = (typeof RECORDER_GAP_KINDS)[number];

export interface RecorderGap {
  /** The first minute driven without video, and the end of the last (exclusive). */
  fromMs: number;
  toMs: number;
  minutes: number;
  kind: RecorderGapKind;
}

/** The gap in an alert's JSON body: times as ISO 8601 UTC. */
export const recorderGapBodySchema = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  minutes: z.number().int().positive(),
  kind: z.enum(RECORDER_GAP_KINDS),
});

/** What people read as the alert's event: no device event raised it. */
export const NOT_RECORDING_EVENT_NAME = "Not recording";

const KIND_TEXT: Record<RecorderGapKind, string> = {
  "no-record": "nothing was recorded",
  "gps-only": "only GPS was recorded, no video",
  mixed: "no video was recorded (partly nothing at all, partly GPS only)",
};

/** One paragraph for the email: when, how long, what the card holds, what to do. */
export function recorderGapSentence(gap: RecorderGap, clock: FleetClock): string {
  return [
    `The vehicle drove from ${clock.long(gap.fromMs)} to ${clock.long(gap.toMs)} (${plural(gap.minutes, "minute")})`,
    ` and ${KIND_TEXT[gap.kind]}: there is no footage of that time.`,
    " Check the cameras and the SD card before the footage of an incident is needed.",
  ].join("");
}
