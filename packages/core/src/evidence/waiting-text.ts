import { utcTime } from "../text/fleet-clock.js";
import type { OverwrittenFootage } from "./manifest.js";

// The words a person reads about footage that waits for its vehicle: the same in the claim report,
// the incident page and the notices. Times in UTC; the page and the report add the fleet's zone.

/** "about 7 days" for a known retention, else that the stage's maximum wait was used. */
function retentionWords(retentionDays: number | null): string {
  return retentionDays === null
    ? "its card's retention is not known, so the longest wait this deployment allows was used"
    : `its card keeps footage about ${Math.round(retentionDays)} days`;
}

/** Why a set has no video when its vehicle never came back in time. */
export function overwrittenSentence(footage: OverwrittenFootage): string {
  return `No video: the vehicle was offline from ${utcTime(Date.parse(footage.offlineSince))} and did not come back online before ${utcTime(Date.parse(footage.keptUntil))}, by when the recorder will have overwritten the footage (${retentionWords(footage.retentionDays)}). The footage was never uploaded.`;
}

/** The "footage at risk" notice's sentence. */
export function atRiskSentence(wait: {
  offlineSinceMs: number;
  keptUntilMs: number;
  retentionDays: number | null;
}): string {
  return `The video is still on the vehicle's card, but the vehicle has been offline since ${utcTime(wait.offlineSinceMs)}, and ${retentionWords(wait.retentionDays)}: unless the vehicle comes online (ignition on, within network coverage) before ${utcTime(wait.keptUntilMs)}, the footage will be overwritten.`;
}
