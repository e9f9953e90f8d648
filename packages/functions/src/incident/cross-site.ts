/**
 * Whether a POST may come from a page of the app: browsers state where a request comes from in
 * `Origin` (always on a POST) and `Sec-Fetch-Site`. A request from any other origin, a sibling site
 * included, is refused; one without either header is not a browser's, so not a cross-site forgery
 * (the form proof still binds it to the link).
 */
export function comesFromOrigin(headers: Headers, publicOrigin: string): boolean {
  const origin = headers.get("origin");
  if (origin !== null && origin !== publicOrigin) return false;
  const site = headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none";
}
