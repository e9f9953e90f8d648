import { escapeHtml } from "./markup.js";
import type { ClaimReportModel } from "./model.js";

/** The page beside this report that shows the RFC 3161 token once it is written. */
export const TIMESTAMP_PAGE = "timestamp.html";
const TOKEN = "tagmanifest-sha256.txt.tsr";

/**
 * The time-stamp, framed: the token covers the tag manifest, which holds this report's digest, so
 * the report is written before the token and cannot show it. The frame is sandboxed because
 * `timestamp.html` is outside the manifests: whatever it holds, it runs nothing.
 */
export function timestampSection(model: ClaimReportModel): string {
  if (!model.timestamped) return "";
  return `<section id="timestamp">
<h2>Time-stamp</h2>
<p>An independent time-stamping authority signs the digest of <code>tagmanifest-sha256.txt</code>, which lists this report's digest; this report therefore exists before the token and cannot contain it. The page below, <code>${TIMESTAMP_PAGE}</code>, was written after the token and shows what it says; it is in neither manifest, so check the token itself as shown under How to verify.</p>
<iframe src="${TIMESTAMP_PAGE}" title="The time-stamp token of this bag" sandbox></iframe>
<p><a href="${TIMESTAMP_PAGE}">Open ${TIMESTAMP_PAGE} on its own</a> to read or print it whole.</p>
</section>`;
}

/** How a reader checks the bag with common tools, or with fleet-alerts itself. */
export function verificationSection(model: ClaimReportModel): string {
  const commands = [
    "sha256sum -c manifest-sha256.txt",
    "sha256sum -c tagmanifest-sha256.txt",
    ...(model.timestamped
      ? [`openssl ts -verify -data tagmanifest-sha256.txt -in ${TOKEN} -CAfile <TSA's CA>`]
      : []),
  ];
  const token = model.timestamped
    ? `<li>When <code>${TOKEN}</code> is present, <code>openssl ts -verify</code> checks that the time-stamping authority signed the digest of the tag manifest as it is now (give it the authority's CA certificate).</li>`
    : "";
  return `<section id="verify">
<h2>How to verify</h2>
<p>This folder is a BagIt bag (RFC 8493). In it, run:</p>
<pre><code>${commands.map(escapeHtml).join("\n")}</code></pre>
<ul>
<li><code>manifest-sha256.txt</code> lists every file under <code>data/</code> with its SHA-256: the first command recomputes them (on macOS: <code>shasum -a 256 -c manifest-sha256.txt</code>).</li>
<li><code>tagmanifest-sha256.txt</code> does the same for the bag's own files, this report and the custody record <code>manifest.json</code> among them.</li>
${token}
<li>Or, with fleet-alerts: <code>${escapeHtml("fleet-alerts evidence verify <folder or zip>")}</code> checks all of the above and reports every problem it finds.</li>
</ul>
</section>`;
}
