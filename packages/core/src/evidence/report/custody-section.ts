import type { FootageRequest } from "../request-custody.js";
import { escapeHtml, factList } from "./markup.js";
import type { ClaimReportModel } from "./model.js";
import { recordedInstant } from "./report-times.js";

/** The chain of custody: when each clip was requested, from where, and when it was stored; who bagged it all. */
export function custodySection(model: ClaimReportModel): string {
  const { custody } = model;
  const rows = model.clips.map(
    (clip) =>
      `<tr><td><code>${escapeHtml(clip.path)}</code></td><td>${recordedInstant(clip.requestedAt)}</td><td><code class="endpoint">${escapeHtml(clip.endpoint)}</code></td><td>${recordedInstant(clip.storedAt)}</td></tr>`,
  );
  const requests =
    rows.length === 0
      ? `<p class="absent">No clip was requested and stored.</p>`
      : `<table>
<thead><tr><th>File</th><th>Requested (UTC)</th><th>From the device cloud (credentials removed)</th><th>Stored (UTC)</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>`;
  return `<section id="custody">
<h2>Chain of custody</h2>
${requests}
${factList([
  ...requestFacts(custody.request),
  ["Collected by", `${escapeHtml(custody.software.name)} ${escapeHtml(custody.software.version)}`],
  ["Function version", escapeHtml(custody.functionVersion)],
  ["Source organization", escapeHtml(custody.sourceOrganization)],
  ["Bagged (UTC)", recordedInstant(custody.baggedAt)],
])}
<p>The full custody record is <code>manifest.json</code> in this bag.</p>
</section>`;
}

/** Footage asked for by hand: who asked, when and why, first in the custody record (the operator's words, escaped). */
function requestFacts(request: FootageRequest | undefined): [string, string][] {
  if (!request) return [];
  return [
    ["Requested by", escapeHtml(request.requestedBy)],
    ["Requested (UTC)", recordedInstant(request.requestedAt)],
    ["Reason given", escapeHtml(request.reason)],
  ];
}
