import * as z from "zod";
import { EVENT_CODES, eventCodeFromName } from "../devicecloud/codes.js";

// A misspelt name within this many edits of a known one gets a "did you mean" hint.
const MAX_SUGGESTION_DISTANCE = 2;

/**
 * One entry of a rule's `events`: a code by number or by the spec's name (case-insensitive),
 * normalized to the number. Unknown numbers pass (the service may send codes outside the spec's
 * table); unknown names are errors, since a misspelt name would silently never match.
 */
export const eventSelectorSchema = z
  .union([z.number().int().nonnegative(), z.string()], {
    error: 'must be an event code (a whole number) or an event name such as "OverSpeed"',
  })
  .transform((selector, ctx) => {
    if (typeof selector === "number") return selector;
    const code = eventCodeFromName(selector);
    if (code === undefined) {
      ctx.issues.push({ code: "custom", input: selector, message: unknownNameMessage(selector) });
      return z.NEVER;
    }
    return code;
  });

function unknownNameMessage(name: string): string {
  const quoted = closestEventNames(name).map((known) => JSON.stringify(known));
  const hint = quoted.length === 0 ? "" : ` (did you mean ${quoted.join(" or ")}?)`;
  return `unknown event name ${JSON.stringify(name)}${hint}`;
}

/** The known names nearest to a misspelt one ("Ofline" is as near to Online as to Offline). */
function closestEventNames(name: string): string[] {
  const wanted = name.trim().toLowerCase();
  let nearest: string[] = [];
  let nearestDistance = MAX_SUGGESTION_DISTANCE + 1;
  for (const known of Object.keys(EVENT_CODES)) {
    const distance = editDistance(wanted, known.toLowerCase());
    if (distance < nearestDistance) {
      nearest = [known];
      nearestDistance = distance;
    } else if (distance === nearestDistance) {
      nearest.push(known);
    }
  }
  return nearest;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
