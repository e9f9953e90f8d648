/** Restrained styling shared by `report.html` and `timestamp.html`: readable on screen, plain on paper. */
export const BASE_STYLE = `:root { color-scheme: light; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #1d1d1b; margin: 0 auto; max-width: 60rem; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0.2rem 0; }
h2 { font-size: 1.2rem; border-bottom: 1px solid #ccc; margin: 2rem 0 0.75rem; padding-bottom: 0.2rem; }
h3 { font-size: 1rem; margin: 1rem 0 0.5rem; }
code, pre { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 0.85em; }
pre { background: #f3f3f0; border: 1px solid #ddd; padding: 0.75rem; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0; }
th, td { border: 1px solid #ccc; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f0; }
.number { text-align: right; font-variant-numeric: tabular-nums; }
.digest, .endpoint { overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.absent { color: #6b6b66; font-style: italic; }
@media print {
  body { font-size: 10pt; max-width: none; padding: 0; }
  h2 { break-after: avoid; }
  tr, figure, dl.facts { break-inside: avoid; }
  pre { white-space: pre-wrap; }
}
`;

/** What only the report needs: figures, players, the framed time-stamp, and links written out on paper. */
export const REPORT_STYLE = `${BASE_STYLE}.kicker { color: #6b6b66; text-transform: uppercase; letter-spacing: 0.05em; font-size: 0.8rem; margin: 0; }
figure { margin: 0.75rem 0; }
figcaption { font-size: 0.9rem; color: #444; margin-top: 0.3rem; }
svg { display: block; width: 100%; height: auto; max-width: 40rem; }
.clip video { display: block; width: 100%; max-width: 30rem; background: #000; }
iframe { width: 100%; height: 34rem; border: 1px solid #ccc; }
@page { margin: 15mm; }
@media print {
  .clip video { display: none; }
  a[href^="https:"]::after { content: " <" attr(href) ">"; overflow-wrap: anywhere; }
}
`;
