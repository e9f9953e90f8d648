/**
 * Whether a POST may come from a page of the app. `Sec-Fetch-Site` decides where the browser sends
 * it: only `same-origin` (a sibling site is refused too). `Origin` alone cannot: under the page's
 * `Referrer-Policy: no-referrer` browsers send `Origin: null` even from the page itself, so it
 * refuses only when it names another origin. A request with neither header is not a browser's, so
 * not a cross-site forgery; the form proof still binds every request to its link.
 */
export function comesFromOrigin(headers: Headers, publicOrigin: string): boolean {
  const origin = headers.get("origin");
  if (origin !== null && origin !== "null" && origin !== publicOrigin) return false;
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin";
  return origin !== "null";
}
