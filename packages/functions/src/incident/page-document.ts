import { escapeHtml } from "@fleet-alerts/core/evidence/report";
import { PAGE_STYLE } from "./page-style.js";

/** A whole page, readable without script; the CSP comes as a header with every response. */
export function pageDocument(title: string, body: string, head = ""): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>${head}
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * The one answer for every link that grants nothing (unknown, malformed, expired, revoked) and for
 * every path that is not the app's: it says nothing about which it was.
 */
export const NOT_FOUND_PAGE = pageDocument(
  "Link not found",
  `<h1>This link does not open anything</h1>
<p>It may have expired or been withdrawn. Ask whoever sent it for a new one.</p>`,
);

export const REFUSED_PAGE = pageDocument(
  "Not accepted",
  `<h1>Not accepted</h1>
<p>The acknowledgement must be sent from the incident page itself. Open the link again and use its form.</p>`,
);

export const FAILED_PAGE = pageDocument(
  "Something went wrong",
  `<h1>Something went wrong</h1>
<p>The page could not be shown just now. Try again in a minute.</p>`,
);

export const INVALID_FORM_PAGE = pageDocument(
  "Name missing",
  `<h1>Your name is missing</h1>
<p>An acknowledgement says who handles the alert. Go back and give your name (80 characters at most).</p>`,
);

/** The zip is being built (a minute or so): the page asks again every 15 s, and then the download starts. */
export const PACK_PREPARING_PAGE = pageDocument(
  "Preparing the claim pack",
  `<h1>The claim pack is being prepared</h1>
<p>Its files are being put into one zip. This page checks again every 15 seconds and the download starts when it is ready; you may also come back to the link later.</p>`,
  `\n<meta http-equiv="refresh" content="15">`,
);
