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
 * The device id as exactly one segment of a key, whatever the device cloud calls it: percent-encoded
 * (so no `/` adds a level), a segment of dots encoded too (`.` and `..` are segments that browsers,
 * SDKs and consoles resolve, so the incident page's clip link pointed elsewhere), and a long id cut
 * with its digest after `~` (ids differing past the cut still get different folders).
 */
export function deviceKeySegment(deviceid: string): string {
  const encoded = encodeURIComponent(deviceid.toWellFormed());
  const segment = /^\.+$/.test(encoded) ? encoded.replaceAll(".", "%2E") : encoded;
  if (segment.length <= DEVICE_SEGMENT_MAX) return segment;
  const digest = createHash("sha256").update(deviceid).digest("hex").slice(0, 16);
  // Cut before an escape rather than inside one: "%E2%82" stays a run of whole escapes.
  const cut = segment.slice(0, DEVICE_SEGMENT_MAX - digest.length - 1).replace(/%[0-9A-F]?$/, "");
  return `${cut}~${digest}`;
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
