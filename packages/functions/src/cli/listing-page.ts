import { LISTING_PAGE_MAX, type ListingPage } from "@fleet-alerts/core/share";
import { Option } from "commander";
import { integerBetween } from "./parse.js";

/** Lines a listing prints unless asked for more: a screenful or two. */
const DEFAULT_PAGE_LINES = 100;

export interface ListingPageOptions {
  limit: number;
  after?: string;
}

/** `--limit` and `--after`: one page of a listing, and where the next starts. */
export function listingPageOptions(): Option[] {
  return [
    new Option("--limit <count>", `at most this many (1 to ${LISTING_PAGE_MAX})`)
      .argParser(integerBetween(1, LISTING_PAGE_MAX))
      .default(DEFAULT_PAGE_LINES),
    new Option("--after <entry>", "continue after this entry, as the previous page's last line says"),
  ];
}

/** The line after a page that has a next one: the command that prints it. */
export function nextPageLine(page: ListingPage<unknown>, command: string): string[] {
  return page.next === undefined ? [] : [`more: ${command} --after ${page.next}`];
}
