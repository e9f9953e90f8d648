import { singleLine } from "./alphabet.js";
import { shorten } from "./fit.js";
import { nonEmpty } from "./words.js";

/**
 * The most of a device cloud's text (a vehicle or driver name, a device id) that a message meant
 * for people shows: a name of ten thousand characters helps nobody in an email. Machine bodies (the
 * JSON body, webhooks, `event.json`) keep it whole, as sent.
 */
export const DISPLAY_TEXT_MAX = 200;

/** A device cloud's text for people: one line (`singleLine`), cut between graphemes with "…". */
export function displayText(text: string, max = DISPLAY_TEXT_MAX): string {
  return shorten(singleLine(text), max, "…");
}

/** A name to show, or undefined when there is none or it shows as nothing (blanks, controls). */
export function displayName(text: string | null | undefined): string | undefined {
  return text == null ? undefined : nonEmpty(displayText(text));
}

/**
 * What names the vehicle in a heading or a headline: its name, else its device id. A device id
 * that shows as nothing (blanks only) is quoted, so the heading still says which one.
 */
export function vehicleOrDevice(vehicle: string | null | undefined, deviceid: string): string {
  return displayName(vehicle) ?? deviceShown(deviceid);
}

/** The device id for people: one line, cut; quoted as JSON when that leaves nothing to see. */
export function deviceShown(deviceid: string): string {
  return displayName(deviceid) ?? JSON.stringify(deviceid);
}
