/**
 * Harsh modes of the event query: the behaviours the spec leaves open ("ordering, and any
 * paging: not shown") made as unhelpful as plausible, so clients are tested against them.
 * The cap (maxResults) is applied while selecting (filters.ts); this module shapes the page.
 */
import type { ResolvedHarshOptions } from "./options.js";
import type { Rng } from "./rng.js";

/**
 * Reverses the page for order "desc", then repeats a seeded fraction of its items, each copy
 * right after its original (duplicates come on top of maxResults).
 */
export function shapePage<T>(page: readonly T[], options: ResolvedHarshOptions, rng: Rng): T[] {
  const ordered = options.order === "desc" ? [...page].reverse() : [...page];
  if (options.duplicateRate === 0) return ordered;
  return ordered.flatMap((item) => (rng.chance(options.duplicateRate) ? [item, item] : [item]));
}
