const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text for an HTML element or a quoted attribute. Everything a device reports (its id, the
 * vehicle's and driver's names) is hostile until escaped: a name may hold markup.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

/** A bag-relative path as a relative URL: each segment percent-encoded, so no name can become a scheme or a query. */
export function relativeUrl(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** Term and description pairs as a `<dl>`; descriptions are markup, already escaped. */
export function factList(facts: readonly (readonly [term: string, description: string])[]): string {
  const rows = facts.map(([term, description]) => `<dt>${escapeHtml(term)}</dt><dd>${description}</dd>`);
  return `<dl class="facts">${rows.join("")}</dl>`;
}

/** A number for SVG coordinates: a tenth of a user unit is finer than any screen or printer draws. */
export function svgNumber(value: number): string {
  return value.toFixed(1);
}
