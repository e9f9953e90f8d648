import { readFile } from "node:fs/promises";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";

const PAGE = "docs/PERFORMANCE.md";
const MAX_LINES = 250;
const parser = new MarkdownIt();

interface Table {
  /** 1-based line of the header row. */
  line: number;
  header: string[];
  rows: { line: number; cells: string[] }[];
}

/** The page's tables as markdown-it reads them (a `|` inside a code block is not a table). */
function tablesOf(markdown: string): Table[] {
  const tables: Table[] = [];
  let table: Table | undefined;
  let row: { line: number; cells: string[] } | undefined;
  let inHeader = false;
  for (const token of parser.parse(markdown, {})) {
    if (token.type === "table_open") {
      table = { line: 0, header: [], rows: [] };
      tables.push(table);
    } else if (token.type === "thead_open") inHeader = true;
    else if (token.type === "thead_close") inHeader = false;
    else if (token.type === "tr_open" && table) {
      row = { line: (token.map?.[0] ?? 0) + 1, cells: [] };
      if (inHeader) table.line = row.line;
      else table.rows.push(row);
    } else if (token.type === "inline" && row) {
      if (inHeader) table?.header.push(token.content.trim());
      else row.cells.push(token.content.trim());
    } else if (token.type === "tr_close") row = undefined;
  }
  return tables;
}

const DATE = /^(\d{4}-\d{2}-\d{2})\b/;

/**
 * What breaks the page's convention, one line each: every figure is in a table, and every table has
 * a "Measured" column whose every cell starts with the date (YYYY-MM-DD) of the run that measured it.
 */
function undatedFigures(markdown: string): string[] {
  const problems: string[] = [];
  for (const table of tablesOf(markdown)) {
    const column = table.header.findIndex((name) => name.toLowerCase() === "measured");
    if (column === -1) {
      problems.push(`line ${table.line}: a table without a Measured column`);
      continue;
    }
    for (const { line, cells } of table.rows) {
      const date = DATE.exec(cells[column] ?? "")?.[1];
      if (date === undefined || Number.isNaN(Date.parse(date)))
        problems.push(`line ${line}: no date (YYYY-MM-DD) in the Measured column`);
    }
  }
  return problems;
}

describe("docs/PERFORMANCE.md", () => {
  it(`stays one page of the latest figures: at most ${MAX_LINES} lines`, async () => {
    const page = await readFile(PAGE, "utf8");
    expect(page.trimEnd().split("\n").length).toBeLessThanOrEqual(MAX_LINES);
  });

  it("dates every figure: each table has a Measured column, each of its rows a date there", async () => {
    const page = await readFile(PAGE, "utf8");
    expect(tablesOf(page).length).toBeGreaterThan(10);
    expect(undatedFigures(page)).toEqual([]);
  });

  it("names what is undated: a table without the column, a row without a date, a date that is none", () => {
    const page = [
      "| Figure | Value | Measured |",
      "|---|---|---|",
      "| rate | 749 alerts/s | 2026-12-06 |",
      "| memory | 93 MiB | today |",
      "| init | 200 ms | 2026-13-45 |",
      "",
      "| Figure | Value |",
      "|---|---|",
      "| cost | 7.89 USD |",
      "",
      "```",
      "| not | a table |",
      "|---|---|",
      "```",
    ].join("\n");
    expect(undatedFigures(page)).toEqual([
      "line 4: no date (YYYY-MM-DD) in the Measured column",
      "line 5: no date (YYYY-MM-DD) in the Measured column",
      "line 7: a table without a Measured column",
    ]);
  });
});
