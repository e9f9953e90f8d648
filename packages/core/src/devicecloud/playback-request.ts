import * as z from "zod";
import type { Credentials } from "./credentials.js";
import { ENDPOINTS } from "./endpoints.js";
import { deviceIdSchema } from "./schemas/common.js";
import { REDACTED } from "./secret.js";
import { endpointUrl } from "./transport.js";

// What a playback is asked for, and its URL (the password hash in the path, redacted for logs).

export const MAX_PLAYBACK_MINUTES = 30;
const MAX_CHANNEL = 32;

/** "+0530", "-03:30" or minutes east of UTC; the service's form is +hhmm. UTC-12:00 to UTC+14:00. */
export const utcOffsetSchema = z
  .union([z.string(), z.number()])
  .transform((value, context) => {
    if (typeof value === "number") return value;
    if (!/^[+-]\d{2}:?\d{2}$/.test(value)) {
      context.addIssue({ code: "custom", message: "must look like +hhmm or -hh:mm", input: value });
      return z.NEVER;
    }
    const sign = value.startsWith("-") ? -1 : 1;
    const digits = value.replace(/[+:-]/g, "");
    const minutes = Number(digits.slice(2, 4));
    if (minutes < 60) return sign * (Number(digits.slice(0, 2)) * 60 + minutes);
    context.addIssue({ code: "custom", message: "must have minutes below 60", input: value });
    return z.NEVER;
  })
  .pipe(
    z
      .number()
      .int("must have whole minutes")
      .min(-12 * 60, "must be between -12:00 and +14:00")
      .max(14 * 60, "must be between -12:00 and +14:00"),
  );

export const playbackRequestSchema = z.strictObject({
  // `@` would be read as the channel selector and `/` or `\` as another path segment.
  deviceid: deviceIdSchema.regex(/^[^@/\\]+$/, "must not contain @, / or \\"),
  /** One channel, counted from 1. Without it the request carries no selector (the spec allows that). */
  channel: z.number().int().min(1).max(MAX_CHANNEL).optional(),
  durationMinutes: z.number().int().min(1).max(MAX_PLAYBACK_MINUTES),
  /** The start instant; written in the fleet's local time with `utcOffset`, whole seconds (sub-second part dropped). */
  start: z.date().refine((date) => !Number.isNaN(date.getTime()), "must be a valid date"),
  utcOffset: utcOffsetSchema.default(0),
  fileName: z
    .string()
    .max(255)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\.mp4$/, "must be letters, digits, '.', '_' or '-' and end in .mp4")
    .refine((name) => !name.includes(".."), "must not contain '..'")
    .optional(),
});
export type PlaybackRequestInput = z.input<typeof playbackRequestSchema>;
export type PlaybackRequest = z.output<typeof playbackRequestSchema>;

/** The spec's selector: bit N-1 for channel N (channel 1 = 1, channel 3 = 4). */
export function channelSelector(channel: number): number {
  return 2 ** (channel - 1);
}

/** `YYYY-MM-DDTHH:mm:ss+hhmm`: the instant as wall-clock time at the given offset (minutes east of UTC). */
export function formatPlaybackTimestamp(instant: Date, utcOffsetMinutes: number): string {
  const local = new Date(Math.floor(instant.getTime() / 1000) * 1000 + utcOffsetMinutes * 60_000);
  const wallClock = local.toISOString().slice(0, 19);
  const sign = utcOffsetMinutes < 0 ? "-" : "+";
  const absolute = Math.abs(utcOffsetMinutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, "0");
  const minutes = String(absolute % 60).padStart(2, "0");
  return `${wallClock}${sign}${hours}${minutes}`;
}

export interface PlaybackUrl {
  /** Carries the password hash: hand it to the request, never to a log or an error. */
  url: URL;
  /** The same URL with the password segment replaced by `[redacted]`: safe to log and store. */
  redactedUrl: string;
  /** The validated request, with the timestamp exactly as sent. */
  request: PlaybackRequest & { timestamp: string };
}

/**
 * Builds `{base}/dlplayback/:deviceid(@chs)/:duration/:timestamp/:username/:password/:fileName`.
 * Every segment is percent-encoded (encodeURIComponent), so `+` and `:` of the timestamp travel as
 * %2B and %3A, which a server decodes back; the `@` before the selector stays literal.
 * The input must already be validated by `playbackRequestSchema`.
 */
export function buildPlaybackUrl(
  baseUrl: URL,
  credentials: Credentials,
  request: PlaybackRequest,
): PlaybackUrl {
  const timestamp = formatPlaybackTimestamp(request.start, request.utcOffset);
  const device =
    encodeURIComponent(request.deviceid) +
    (request.channel === undefined ? "" : `@${channelSelector(request.channel)}`);
  const segments = (password: string) =>
    [
      device,
      String(request.durationMinutes),
      encodeURIComponent(timestamp),
      encodeURIComponent(credentials.username),
      password,
    ]
      .concat(request.fileName === undefined ? [] : [encodeURIComponent(request.fileName)])
      .join("/");
  const url = endpointUrl(baseUrl, `${ENDPOINTS.playback.path}/${segments(credentials.passwordHash)}`);
  // Built as text so that the placeholder stays readable; every other character is as sent.
  const redactedUrl = `${endpointUrl(baseUrl, ENDPOINTS.playback.path)}/${segments(REDACTED)}`;
  return { url, redactedUrl, request: { ...request, timestamp } };
}
