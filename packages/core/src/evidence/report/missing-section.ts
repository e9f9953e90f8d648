import { escapeHtml } from "./markup.js";
import type { ClaimReportModel } from "./model.js";

/** What could not be had and why, or that nothing is missing. */
export function missingSection(model: ClaimReportModel): string {
  const body =
    model.missing.length === 0
      ? "<p>Nothing is missing.</p>"
      : `<ul>\n${model.missing.map((sentence) => `<li>${escapeHtml(sentence)}</li>`).join("\n")}\n</ul>`;
  return `<section id="missing">
<h2>What could not be had</h2>
${body}
</section>`;
}
