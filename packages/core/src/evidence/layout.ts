import type { EvidenceJob } from "./job.js";

/**
 * Where an event's evidence lives: `evidence/<deviceid>/<yyyy>/<mm>/<dd>/<serialno>/`, the date
 * being the event's UTC date. The device id is percent-encoded so that no id can add a level. The
 * prefix is the claim pack's bag: its payload under `data/` from the start (objects under Object
 * Lock cannot be moved into a bag later), its tag files beside `data/`.
 */
export function evidencePrefix(job: Pick<EvidenceJob, "deviceid" | "eventtime" | "serialno">): string {
  const day = new Date(job.eventtime).toISOString().slice(0, 10).split("-").join("/");
  return `evidence/${encodeURIComponent(job.deviceid)}/${day}/${job.serialno}/`;
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
