import { SMS_SEGMENT_LENGTH, toGsm } from "../text/alphabet.js";
import type { AlertMessage } from "./message.js";

// The link to an alert's incident page is `<base>/i/<token>`. The alert record keeps the message
// as rendered, for replays, and must never hold a token: messages are rendered with this slot in
// its place and filled in as they are published. Braces are outside base64url, so no token and
// no other text of a rendered message (device texts are made single-line, not brace-free, but a
// slot filled there would be the alert's own link) is taken for it.
const TOKEN_SLOT = "{token}";
const PATH = "/i/";
const TOKEN_LENGTH = 22; // 16 bytes in base64url (share/token.ts)

/**
 * The least an SMS keeps beside the link: severity, event (an OverSpeed with speed and limit), some
 * of the vehicle's name and the time; so base URLs up to 62 characters pass, an API Gateway
 * endpoint in any region among them.
 */
export const SMS_MIN_TEXT_LENGTH = 72;
/** The longest base URL whose links leave an SMS its text (the link goes after a space). */
export const MAX_PUBLIC_BASE_URL_LENGTH =
  SMS_SEGMENT_LENGTH - SMS_MIN_TEXT_LENGTH - 1 - PATH.length - TOKEN_LENGTH;

/** Why a base URL cannot start alert links, or undefined if it can. */
export function publicBaseUrlProblem(baseUrl: string): string | undefined {
  if (baseUrl.length > MAX_PUBLIC_BASE_URL_LENGTH)
    return `must be at most ${MAX_PUBLIC_BASE_URL_LENGTH} characters: an SMS holds the link and its text in 160`;
  if (toGsm(baseUrl) !== baseUrl)
    return "must use only characters of the GSM 03.38 basic set (an SMS with others is cut to 70 characters)";
  return undefined;
}

/** The incident page of a token. */
export function incidentLink(baseUrl: string, token: string): string {
  return `${baseUrl}${PATH}${token}`;
}

/** A link as rendered into a message: its length is the filled link's. */
export interface LinkTemplate {
  text: string;
  length: number;
}

export function linkTemplate(baseUrl: string): LinkTemplate {
  return { text: incidentLink(baseUrl, TOKEN_SLOT), length: baseUrl.length + PATH.length + TOKEN_LENGTH };
}

/** Whether the message was rendered with a link, to be filled in as it is published. */
export function hasLinkSlot(message: AlertMessage): boolean {
  return message.email.includes(`${PATH}${TOKEN_SLOT}`) || message.sms.includes(`${PATH}${TOKEN_SLOT}`);
}

/** The message with its link's token in place: the one that goes out, never the one stored. */
export function fillLink(message: AlertMessage, token: string): AlertMessage {
  const fill = (text: string) => text.replaceAll(`${PATH}${TOKEN_SLOT}`, `${PATH}${token}`);
  return { ...message, email: fill(message.email), sms: fill(message.sms) };
}

/** An SMS's text and the incident link it ends with (filled or still a slot), if it ends with one. */
export function splitTrailingLink(sms: string): { text: string; link?: string } {
  const match = / (\S+\/i\/(?:\{token\}|[A-Za-z0-9_-]{22}))$/.exec(sms);
  return match ? { text: sms.slice(0, match.index), link: match[1] } : { text: sms };
}

/**
 * A stored message made ready to send again (an escalation): its link filled with the alert's
 * token, or, where this function cannot derive the token, taken out rather than sent as a slot.
 */
export function withLinkFilledOrDropped(message: AlertMessage, token: string | undefined): AlertMessage {
  if (token !== undefined) return fillLink(message, token);
  const drop = (text: string) => text.replace(/ ?\S+\/i\/\{token\}/g, "");
  return { ...message, email: drop(message.email), sms: drop(message.sms) };
}
