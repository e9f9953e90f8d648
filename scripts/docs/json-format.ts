/**
 * JSON laid out as biome formats it (biome.json: 2 spaces, 110 columns), so that the generated
 * schemas pass `biome check` as written: objects one key a line, a list of plain values on one
 * line when it fits, else one value a line.
 */

const LINE_WIDTH = 110;
const INDENT = "  ";

const isPlain = (value: unknown) => value === null || typeof value !== "object";

function layout(value: unknown, indent: string, lineStart: number, after: string): string {
  if (isPlain(value)) return JSON.stringify(value);
  const inner = indent + INDENT;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const flat = `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
    if (value.every(isPlain) && lineStart + flat.length + after.length <= LINE_WIDTH) return flat;
    const items = value.map(
      (item, index) => `${inner}${layout(item, inner, inner.length, index < value.length - 1 ? "," : "")}`,
    );
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  const lines = entries.map(([key, item], index) => {
    const head = `${inner}${JSON.stringify(key)}: `;
    return `${head}${layout(item, inner, head.length, index < entries.length - 1 ? "," : "")}`;
  });
  return `{\n${lines.join(",\n")}\n${indent}}`;
}

export function formatJson(value: unknown): string {
  return `${layout(value, "", 0, "")}\n`;
}
