import type { MiddlewareHandler } from "hono";
import { PAGE_STYLE_HASH } from "./page-style.js";

/**
 * No script at all; the page's one `<style>` by hash; the maps and charts are inline SVG (`data:`
 * for any image they may hold); clips from the app's clip route ('self') and the presigned S3
 * origin it redirects to (a redirect is checked against the policy too); the form posts only here.
 * `form-action`, `frame-ancestors` and `base-uri` do not fall back to `default-src`, so they are
 * named.
 */
export function contentSecurityPolicy(mediaOrigin: string): string {
  return [
    "default-src 'none'",
    `style-src ${PAGE_STYLE_HASH}`,
    "img-src 'self' data:",
    `media-src 'self' ${mediaOrigin}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/**
 * On every response, the 404 and the redirects included: the URL holds the token, so no referrer
 * may carry it anywhere, and no cache (shared or the browser's) may keep a page of it.
 */
export function securityHeaders(mediaOrigin: string): MiddlewareHandler {
  const policy = contentSecurityPolicy(mediaOrigin);
  return async (c, next) => {
    await next();
    c.res.headers.set("Content-Security-Policy", policy);
    c.res.headers.set("Referrer-Policy", "no-referrer");
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    c.res.headers.set("Cache-Control", "no-store");
  };
}
