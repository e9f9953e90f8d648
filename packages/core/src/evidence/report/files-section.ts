import { escapeHtml } from "./markup.js";
import type { ClaimReportModel } from "./model.js";

/** Every file of the bag with its size and SHA-256, to compare with the manifests and with the files themselves. */
export function filesSection(model: ClaimReportModel): string {
  const rows = model.files.map(
    (file) =>
      `<tr><td><code>${escapeHtml(file.path)}</code></td><td>${escapeHtml(file.description)}</td><td class="number">${file.bytes}</td><td><code class="digest">${escapeHtml(file.sha256)}</code></td></tr>`,
  );
  return `<section id="files">
<h2>Files</h2>
<table>
<thead><tr><th>Path</th><th>What it is</th><th class="number">Bytes</th><th>SHA-256</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
<p>This report is not listed: a file cannot state its own digest. <code>tagmanifest-sha256.txt</code> lists it.</p>
</section>`;
}
