import type { CertificateFacts, TimestampFacts, TimestampState } from "../timestamp/facts.js";
import { htmlDocument } from "./html-document.js";
import { escapeHtml, factList } from "./markup.js";
import { BASE_STYLE } from "./report-style.js";
import { recordedInstant } from "./report-times.js";

// Compact: the report frames it in a box of fixed height (without script a frame cannot fit its content).
const PAGE_STYLE = `${BASE_STYLE}body { font-size: 13px; padding: 0.75rem; max-width: none; }
h1 { font-size: 1.1rem; }
h2 { font-size: 1rem; margin-top: 1rem; }
`;

/**
 * `timestamp.html` (pure): what the bag's RFC 3161 token says, or that one is pending or could not
 * be had. The report frames it; it is written after the token, so it is in neither manifest.
 */
export function renderTimestampPage(state: TimestampState): string {
  return htmlDocument({
    title: "Time-stamp of this bag",
    policy: "timestamp",
    style: PAGE_STYLE,
    body: body(state),
  });
}

function body(state: TimestampState): string {
  switch (state.status) {
    case "stamped":
      return stampedBody(state.facts);
    case "pending":
      return `<h1>Time-stamp pending</h1>
<p>No token yet; it will be requested again. Why: ${escapeHtml(state.reason)}</p>
${factList([["Next attempt (UTC)", recordedInstant(state.nextAttemptAt)]])}`;
    case "unavailable":
      return `<h1>No time-stamp</h1>
<p>This bag has no time-stamp token: ${escapeHtml(state.reason)}</p>`;
  }
}

function stampedBody(facts: TimestampFacts): string {
  return `<h1>Time-stamped</h1>
${factList([
  ["Time (UTC, by the authority)", recordedInstant(facts.genTime)],
  ["Authority", escapeHtml(facts.tsaName)],
  ["Serial number", `<code>${escapeHtml(facts.serialNumber)}</code>`],
  ["Policy", `<code>${escapeHtml(facts.policy)}</code>`],
  [
    "Stamped digest (SHA-256 of tagmanifest-sha256.txt)",
    `<code class="digest">${escapeHtml(facts.messageImprintSha256)}</code>`,
  ],
])}
<h2>Certificates in the token</h2>
<p>The signer first, then its issuers as far as the token carries them.</p>
<table>
<thead><tr><th>Subject</th><th>Issuer</th><th>Valid</th><th>Serial number</th><th>SHA-256 fingerprint</th></tr></thead>
<tbody>
${facts.chain.map(certificateRow).join("\n")}
</tbody>
</table>`;
}

function certificateRow(certificate: CertificateFacts): string {
  return `<tr><td>${escapeHtml(certificate.subject)}</td><td>${escapeHtml(certificate.issuer)}</td><td>${recordedInstant(certificate.notBefore)} to ${recordedInstant(certificate.notAfter)}</td><td><code class="digest">${escapeHtml(certificate.serialNumber)}</code></td><td><code class="digest">${escapeHtml(certificate.sha256Fingerprint)}</code></td></tr>`;
}
