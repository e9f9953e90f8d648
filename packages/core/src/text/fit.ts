import { graphemePrefix, graphemeSegments } from "./graphemes.js";

const ELLIPSIS = "...";

/** The parts of a one-line text: `head name (aside) tail`, where only the names may be cut. */
export interface LineParts {
  head: string;
  name: string;
  /** Shown in parentheses after the name, e.g. the driver after the vehicle. */
  aside?: string;
  tail?: string;
}

/** The line in at most `max` characters, the name and aside cut to make room. */
export function fitLine({ head, name, aside, tail = "" }: LineParts, max: number): string {
  const decoration = aside === undefined ? 0 : " ()".length;
  const room = max - head.length - tail.length - decoration;
  const [fittedName, fittedAside] = shareRoom(name, aside ?? "", room);
  const line = `${head}${fittedName}${aside === undefined ? "" : ` (${fittedAside})`}${tail}`;
  return shorten(line, max); // only bites when head and tail alone are too long
}

/** Cuts two texts to fit `room` together; a short one leaves its unused half to the other. */
export function shareRoom(first: string, second: string, room: number): [string, string] {
  if (first.length + second.length <= room) return [first, second];
  const half = Math.floor(room / 2);
  if (first.length <= half) return [first, shorten(second, room - first.length)];
  if (second.length <= half) return [shorten(first, room - second.length), second];
  return [shorten(first, half), shorten(second, room - half)];
}

/**
 * At most `max` characters (UTF-16 code units), `ellipsis` showing where the text was cut, which is
 * always between two grapheme clusters (graphemes.ts).
 */
export function shorten(text: string, max: number, ellipsis = ELLIPSIS): string {
  if (text.length <= max) return text;
  if (max <= ellipsis.length) return graphemePrefix(text, Math.max(0, max));
  return `${withoutTrailingBlanks(graphemePrefix(text, max - ellipsis.length))}${ellipsis}`;
}

/**
 * The text without the blank graphemes at its end. Not `trimEnd()`: a space can belong to the
 * grapheme before it (after a prepended mark such as U+0600), which trimming would split.
 */
function withoutTrailingBlanks(text: string): string {
  let end = 0;
  let at = 0;
  for (const grapheme of graphemeSegments(text)) {
    at += grapheme.length;
    if (grapheme.trim() !== "") end = at;
  }
  return text.slice(0, end);
}
