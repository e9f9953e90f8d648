import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { documentationPages, headingAnchors, markdownLinks } from "../support/markdown.js";

const ROOT = resolve(".");
const EXTERNAL = /^(https?|mailto):/i;

/** The anchors of each page read so far: a page is parsed once however many links reach it. */
const anchorsOf = new Map<string, Set<string>>();
async function anchors(file: string): Promise<Set<string>> {
  let found = anchorsOf.get(file);
  if (!found) {
    found = headingAnchors(await readFile(file, "utf8"));
    anchorsOf.set(file, found);
  }
  return found;
}

/**
 * What is wrong with a page's relative links, one line each: a target missing or outside the
 * repository, or an anchor that no heading of the target Markdown page makes. `page` is the
 * page's path from the repository root; links resolve from its folder, as GitHub resolves them.
 */
async function linkProblems(page: string, markdown: string): Promise<string[]> {
  const problems: string[] = [];
  for (const { href, line } of markdownLinks(markdown)) {
    if (EXTERNAL.test(href)) continue;
    const hash = href.indexOf("#");
    const path = decodeURIComponent(hash === -1 ? href : href.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(href.slice(hash + 1));
    const where = `${page}:${line}: ${href}`;
    if (path === "") {
      if (anchor !== undefined && !headingAnchors(markdown).has(anchor))
        problems.push(`${where} (no such heading here)`);
      continue;
    }
    // A path from the root is the repository's root on GitHub.
    const target = path.startsWith("/") ? join(ROOT, path) : resolve(dirname(page), path);
    if (relative(ROOT, target).startsWith("..")) problems.push(`${where} (outside the repository)`);
    else if (!existsSync(target)) problems.push(`${where} (no such file)`);
    else if (anchor !== undefined && target.endsWith(".md") && !(await anchors(target)).has(anchor)) {
      problems.push(`${where} (no such heading in ${relative(ROOT, target)})`);
    }
  }
  return problems;
}

describe("the documentation's links", () => {
  it("resolve: every relative link and anchor of the README and docs/ reaches a file and a heading", async () => {
    const pages = await documentationPages();
    expect(pages).toContain("docs/ARCHITECTURE.md");
    const problems: string[] = [];
    let links = 0;
    for (const page of pages) {
      const markdown = await readFile(page, "utf8");
      links += markdownLinks(markdown).length;
      problems.push(...(await linkProblems(page, markdown)));
    }
    expect(links).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });

  it("names each broken link: a missing page, a missing anchor, an anchor of this page, a path out of the repository", async () => {
    const page = ["# Title", "", "## Only heading", ""];
    const links = [
      "[ok](ARCHITECTURE.md#packages)",
      "[ok here](#only-heading)",
      "[ok outside](https://example.com/x.md#nothing)",
      "[gone](no-such-page.md)",
      "[no anchor](ARCHITECTURE.md#no-such-heading)",
      "[no anchor here](#nothing-here)",
      "[escape](../../outside.md)",
      "`[in code](no-such-page.md)`",
    ];
    const problems = await linkProblems("docs/synthetic.md", [...page, ...links].join("\n"));
    expect(problems).toEqual([
      "docs/synthetic.md:8: no-such-page.md (no such file)",
      "docs/synthetic.md:9: ARCHITECTURE.md#no-such-heading (no such heading in docs/ARCHITECTURE.md)",
      "docs/synthetic.md:10: #nothing-here (no such heading here)",
      "docs/synthetic.md:11: ../../outside.md (outside the repository)",
    ]);
  });
});

describe("the architecture map", () => {
  it("stays one page that reaches every design page in one hop: at most 300 lines, linking each page of docs/design/", async () => {
    const map = await readFile("docs/ARCHITECTURE.md", "utf8");
    expect(map.trimEnd().split("\n").length).toBeLessThanOrEqual(300);
    const linked = new Set(markdownLinks(map).map(({ href }) => href.split("#")[0]));
    const pages = (await readdir("docs/design")).filter((name) => name.endsWith(".md"));
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.filter((name) => !linked.has(`design/${name}`))).toEqual([]);
  });
});

describe("heading anchors", () => {
  it("follow GitHub's rules: lower case, punctuation dropped but - and _, spaces as -, code without backticks, repeats numbered", () => {
    const markdown = [
      "# The simulator's recorders: retention, uploads",
      "## The device-cloud client (`packages/core/src/devicecloud/`)",
      "## Notes",
      "## Notes",
      "## Notes-1",
      "### snake_case & C++ → done",
      "```",
      "# not a heading",
      "```",
    ].join("\n");
    expect([...headingAnchors(markdown)]).toEqual([
      "the-simulators-recorders-retention-uploads",
      "the-device-cloud-client-packagescoresrcdevicecloud",
      "notes",
      "notes-1",
      "notes-1-1",
      "snake_case--c--done",
    ]);
  });
});
