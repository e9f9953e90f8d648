import { terminalText } from "@fleet-alerts/core/text";

/**
 * Rows as lines of columns aligned with two spaces between them; the header is the first line.
 * Cells hold the device cloud's texts (device ids, names), so each is shown as `terminalText` shows
 * it: nothing in a cell acts on the terminal or starts a line.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const cells = rows.map((row) => row.map(terminalText));
  const widths = header.map((title, column) =>
    cells.reduce((widest, row) => Math.max(widest, (row[column] ?? "").length), title.length),
  );
  return [header, ...cells].map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** JSON with bigints (serial numbers) as their exact digits. */
export function toJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item),
    2,
  );
}

/** A size as an operator reads it: exact below a megabyte, and with the exact count above. */
export function sizeText(bytes: number): string {
  return bytes < 1_000_000 ? count(bytes, "byte") : `${(bytes / 1_000_000).toFixed(1)} MB (${bytes} bytes)`;
}
