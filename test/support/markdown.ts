/**
 * Reading Markdown the way GitHub renders it, for the repository's documentation tests: heading
 * anchors, links, and the code a page shows. Parsed with markdown-it (CommonMark), so that a link
 * inside a code span or a `#` inside a fenced block is not mistaken for one.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import MarkdownIt, { type Token } from "markdown-it";

const parser = new MarkdownIt();

/** A link or image of a page, and the line it starts on (1-based). */
export interface MarkdownLink {
  href: string;
  line: number;
}

/** Code a page shows: a fenced or indented block, or an inline code span. */
export interface MarkdownCode {
  text: string;
  line: number;
  block: boolean;
}

/** The pages the documentation tests read: the README and every Markdown file under docs/. */
export async function documentationPages(root = "."): Promise<string[]> {
  const entries = await readdir(join(root, "docs"), { recursive: true, withFileTypes: true });
  const pages = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => join(entry.parentPath, entry.name));
  return [join(root, "README.md"), ...pages.sort()];
}

/**
 * GitHub's anchor for a heading's text (as github-slugger makes it): lower-case, every character
 * but letters, marks, digits, connector punctuation (`_`), `-` and spaces removed, spaces as `-`.
 */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/**
 * The anchors of a page's headings, in GitHub's form: a repeated heading's anchor gets `-1`, `-2`
 * and so on, in page order. Code spans count by their text, without the backticks.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const tokens = parser.parse(markdown, {});
  tokens.forEach((token, index) => {
    const inline = tokens[index + 1];
    if (token.type !== "heading_open" || inline?.type !== "inline") return;
    const base = headingSlug(renderedText(inline.children ?? []));
    let anchor = base;
    // As github-slugger: count per base anchor, and skip an anchor a heading already took.
    while (anchors.has(anchor)) {
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      anchor = `${base}-${count}`;
    }
    anchors.add(anchor);
  });
  return anchors;
}

/** Every link and image target of a page, as written (links inside code are not links). */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { token, line } of inlineTokens(markdown)) {
    const attribute = { link_open: "href", image: "src" }[token.type];
    const href = attribute === undefined ? null : token.attrGet(attribute);
    if (typeof href === "string") links.push({ href, line });
  }
  return links;
}

/** Every code block and inline code span of a page. */
export function markdownCode(markdown: string): MarkdownCode[] {
  const code: MarkdownCode[] = [];
  for (const token of parser.parse(markdown, {})) {
    if (token.type === "fence" || token.type === "code_block") {
      code.push({ text: token.content, line: lineOf(token), block: true });
    }
  }
  for (const { token, line } of inlineTokens(markdown)) {
    if (token.type === "code_inline") code.push({ text: token.content, line, block: false });
  }
  return code;
}

/**
 * The inline tokens of every block, each with its line: its block's first (a table cell's is its
 * row's), plus the line breaks before it.
 */
function inlineTokens(markdown: string): { token: Token; line: number }[] {
  const found: { token: Token; line: number }[] = [];
  let blockLine = 1;
  for (const block of parser.parse(markdown, {})) {
    if (block.map) blockLine = lineOf(block);
    if (block.type !== "inline") continue;
    let line = blockLine;
    for (const token of block.children ?? []) {
      if (token.type === "softbreak" || token.type === "hardbreak") line++;
      found.push({ token, line });
    }
  }
  return found;
}

/** The text a heading renders to: its words and code spans, without markup or HTML tags. */
function renderedText(tokens: Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === "text" || token.type === "code_inline") return token.content;
      if (token.type === "softbreak" || token.type === "hardbreak") return " ";
      if (token.type === "image") return renderedText(token.children ?? []);
      return "";
    })
    .join("");
}

function lineOf(token: Token): number {
  return (token.map?.[0] ?? 0) + 1;
}
