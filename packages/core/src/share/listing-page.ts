/**
 * The most entries one page of a share or audit listing holds, whatever is asked: a page is read
 * and printed whole, and a thousand lines (a few hundred kilobytes of items) is more than anyone
 * reads at once. An alert read through a link for a year may have far more audit entries.
 */
export const LISTING_PAGE_MAX = 1000;

/** Which page: at most `limit` entries, those after `after` (a page's `next`). */
export interface ListingPageRequest {
  limit: number;
  after?: string | undefined;
}

/** A page of a listing; `next` is the `after` of the page that follows, absent on the last. */
export interface ListingPage<T> {
  entries: T[];
  next?: string;
}

/** Refuses a page size outside 1..LISTING_PAGE_MAX before anything is read. */
export function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > LISTING_PAGE_MAX)
    throw new RangeError(`a listing page holds 1 to ${LISTING_PAGE_MAX} entries, not ${limit}`);
  return limit;
}
