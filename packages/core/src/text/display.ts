import { singleLine } from "./alphabet.js";
import { shorten } from "./fit.js";
import { visibleEscape } from "./terminal.js";

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

/**
 * What a reader sees: not white space, a control or separator, a noncharacter, nor a default-ignorable
 * character (zero-width spaces and joiners, fillers such as U+3164, variation selectors, bidi controls).
 */
const SOMETHING_TO_SEE =
  /[^\s\p{Cc}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]/u;
/** What shows as nothing or acts instead of showing: written as its escape where a text must be seen. */
const NOTHING_TO_SEE =
  /[\p{Cc}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\p{Cs}]/gu;

/**
 * A name to show, or undefined when there is none or it shows as nothing (blanks, controls,
 * zero-width characters only): such a name is no name, and the device id stands in for it.
 */
export function displayName(text: string | null | undefined): string | undefined {
  return text != null && SOMETHING_TO_SEE.test(text) ? displayText(text) : undefined;
}

/**
 * What names the vehicle in a heading or a headline: its name, else its device id. A device id
 * that shows as nothing (blanks only) is quoted, so the heading still says which one.
 */
export function vehicleOrDevice(vehicle: string | null | undefined, deviceid: string): string {
  return displayName(vehicle) ?? deviceShown(deviceid);
}

/**
 * The device id for people: one line, cut; when that leaves nothing to see, quoted with each of its
 * characters that shows as nothing written as its escape (`"\u2028"`), so that it still says which.
 */
export function deviceShown(deviceid: string): string {
  return (
    displayName(deviceid) ??
    `"${shorten(deviceid.replace(NOTHING_TO_SEE, visibleEscape), DISPLAY_TEXT_MAX - 2, "…")}"`
  );
}
