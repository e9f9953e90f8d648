/**
 * The anchors GitHub gives a Markdown file's headings, to check links into a guide without a
 * renderer: lower-case, every character but letters, digits, `_`, `-` and spaces dropped, spaces
 * turned to `-`, and a repeated heading numbered `-1`, `-2`, ... Lines inside fenced code are not
 * headings.
 */
export function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, "")
    .replaceAll(" ", "-");
}

export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    const heading = fence === undefined ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1] : undefined;
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
