import { escapeHtml } from "./markup.js";

/**
 * What the claim pack's pages may load: nothing from any host and no script at all; styles only
 * inline; the report's clips and its framed `timestamp.html` from 'self'. Opened from a folder,
 * Chromium matches 'self' against every `file:` URL (the clips and the frame load; with
 * `default-src 'none'` alone both are blocked); served over HTTP(S), 'self' is that one origin.
 * `base-uri` and `form-action` do not fall back to `default-src`, so they are closed by name.
 */
const REPORT_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; media-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'";
/** `timestamp.html` frames and plays nothing. */
const TIMESTAMP_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

export const CONTENT_SECURITY_POLICIES = { report: REPORT_POLICY, timestamp: TIMESTAMP_POLICY } as const;

export interface HtmlDocument {
  title: string;
  policy: keyof typeof CONTENT_SECURITY_POLICIES;
  style: string;
  /** Markup, already escaped. */
  body: string;
}

/** A whole page, readable without script, that asks no other host for anything. */
export function htmlDocument({ title, policy, style, body }: HtmlDocument): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICIES[policy]}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
${style}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
