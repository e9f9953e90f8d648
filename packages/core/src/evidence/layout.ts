import { createHash } from "node:crypto";
import type { EvidenceJob } from "./job.js";

/**
 * Where an event's evidence lives: `evidence/<device>/<yyyy>/<mm>/<dd>/<serialno>/`, the date
 * being the event's UTC date and `<device>` its device id as one key segment (`deviceKeySegment`).
 * The prefix is the claim pack's bag: its payload under `data/` from the start (objects under
 * Object Lock cannot be moved into a bag later), its tag files beside `data/`.
 */
export function evidencePrefix(job: Pick<EvidenceJob, "deviceid" | "eventtime" | "serialno">): string {
  const day = new Date(job.eventtime).toISOString().slice(0, 10).split("-").join("/");
  return `evidence/${deviceKeySegment(job.deviceid)}/${day}/${job.serialno}/`;
}

/** Enough for any real device id; S3 keys stop at 1,024 bytes, and a percent-encoded id may triple. */
const DEVICE_SEGMENT_MAX = 200;

/**
 * The device id as exactly one segment of a key, whatever the device cloud calls it, and another
 * segment for another id:
 * - percent-encoded, so that no `/` adds a level; a lone surrogate as the three bytes WTF-8 gives it
 *   (not as U+FFFD, another id's); `~` too, so that it only ever marks what follows;
 * - a segment of dots after `~`: `.` and `..` are segments every URL resolves (browsers, SDKs,
 *   consoles), and so is `%2E%2E` in a URL written from the key as it is, so a clip link pointed
 *   elsewhere;
 * - a long id cut, its digest after `~`, so that ids differing past the cut get their own folders.
 */
export function deviceKeySegment(deviceid: string): string {
  const encoded = percentEncoded(deviceid);
  const segment = /^\.+$/.test(encoded) ? `~${encoded}` : encoded;
  if (segment.length <= DEVICE_SEGMENT_MAX) return segment;
  const digest = createHash("sha256").update(encoded).digest("hex").slice(0, 16);
  // Cut before an escape rather than inside one: "%E2%82" stays a run of whole escapes.
  const cut = segment.slice(0, DEVICE_SEGMENT_MAX - digest.length - 1).replace(/%[0-9A-F]?$/, "");
  return `${cut}~${digest}`;
}

function percentEncoded(text: string): string {
  return text
    .split(/(\p{Cs})/u)
    .map((part, index) => (index % 2 === 1 ? wtf8Escapes(part) : encodeURIComponent(part)))
    .join("")
    .replaceAll("~", "%7E");
}

/** A lone surrogate's three bytes, as WTF-8 (UTF-8 extended to surrogates) writes them. */
function wtf8Escapes(surrogate: string): string {
  const unit = surrogate.charCodeAt(0);
  return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
    .map((byte) => `%${byte.toString(16).toUpperCase()}`)
    .join("");
}

/**
 * A clip's name: `ch<N>.mp4`, or `ch<N>-part<k>.mp4` when the window needs more than one playback
 * request (the service serves 30 minutes at most); parts are not stitched, the manifest lists them
 * in order.
 */
export function clipKey(prefix: string, channel: number, part: number, parts: number): string {
  return parts === 1 ? `${prefix}data/ch${channel}.mp4` : `${prefix}data/ch${channel}-part${part + 1}.mp4`;
}

export function manifestKey(prefix: string): string {
  return `${prefix}manifest.json`;
}

/** The GPS track over the evidence window, beside the clips. */
export function trackKey(prefix: string): string {
  return `${prefix}data/track.geojson`;
}

/** The event as the device cloud sent it, beside the clips. */
export function eventKey(prefix: string): string {
  return `${prefix}data/event.json`;
}

/**
 * The folder an alert's claim pack is named by outside the bucket (the local evidence folder, the
 * top folder of a packed zip): the alert id with every character a file system might refuse (the
 * id's colons, for one) as `-`.
 */
export function bagFolderName(alertId: string): string {
  return `claim-${alertId.replace(/[^A-Za-z0-9._-]/g, "-")}`;
}
