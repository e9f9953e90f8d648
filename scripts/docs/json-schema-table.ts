/**
 * Renders a JSON Schema (as `z.toJSONSchema` writes it) as a markdown reference table: one row per
 * field, nested objects and lists of objects flattened to dotted paths (`escalation.levels[].sms`).
 * It reads the JSON Schema rather than zod's internals: that output is zod's stable, public view.
 */

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  [keyword: string]: unknown;
}

export interface FieldRow {
  path: string;
  type: string;
  presence: string;
  values: string;
  description: string;
}

const code = (text: string) => `\`${text}\``;
// Formats an editor knows by name; zod's others (starts_with, say) are clearer as their pattern.
const NAMED_FORMATS = new Set(["email", "uri", "hostname"]);
const namedFormat = (node: JsonSchema) =>
  node.format && NAMED_FORMATS.has(node.format) ? node.format : undefined;
const json = (value: unknown) => code(JSON.stringify(value));

/** `.int()` bounds a number by the safe integers: no bound worth printing. */
const bounded = (limit: number | undefined) =>
  limit !== undefined && Math.abs(limit) !== Number.MAX_SAFE_INTEGER ? limit : undefined;

/** The object a field's value holds fields of: itself, its list's items, or a map's values. */
function nestedObject(node: JsonSchema): { schema: JsonSchema; suffix: string } | undefined {
  if (node.properties) return { schema: node, suffix: "" };
  if (node.items?.properties) return { schema: node.items, suffix: "[]" };
  if (typeof node.additionalProperties === "object" && node.additionalProperties.properties)
    return { schema: node.additionalProperties, suffix: ".<name>" };
  return undefined;
}

export function typeOf(node: JsonSchema): string {
  if (node.anyOf) return node.anyOf.map(typeOf).join(" or ");
  if (node.enum) return [...new Set(node.enum.map((value) => typeof value))].join(" or ");
  const type = Array.isArray(node.type) ? node.type.join(" or ") : (node.type ?? "any");
  if (type === "array") return `list of ${node.items ? typeOf(node.items) : "any"}`;
  if (type === "object" && typeof node.additionalProperties === "object")
    return `map of name to ${typeOf(node.additionalProperties)}`;
  const format = namedFormat(node);
  return format ? `${type} (${format})` : type;
}

function range(low: number | undefined, high: number | undefined, unit: string): string[] {
  if (unit && low === 1 && high === undefined) return ["not empty"];
  if (low !== undefined && high !== undefined) return [`${low} to ${high}${unit}`];
  if (low !== undefined) return [`at least ${low}${unit}`];
  if (high !== undefined) return [`at most ${high}${unit}`];
  return [];
}

/** The values a field accepts beyond its type: enumerations, bounds, patterns (of its items too). */
export function valuesOf(node: JsonSchema): string {
  const parts: string[] = [];
  if (node.enum) parts.push(`one of ${node.enum.map((value) => json(value)).join(", ")}`);
  if (node.const !== undefined) parts.push(`only ${json(node.const)}`);
  if (node.exclusiveMinimum !== undefined) parts.push(`above ${node.exclusiveMinimum}`);
  if (node.exclusiveMaximum !== undefined) parts.push(`below ${node.exclusiveMaximum}`);
  parts.push(...range(bounded(node.minimum), bounded(node.maximum), ""));
  parts.push(...range(node.minLength, node.maxLength, " characters"));
  parts.push(...range(node.minItems, node.maxItems, " items"));
  // A format names the rule better than its pattern (zod's e-mail pattern is 150 characters long).
  if (node.pattern && !namedFormat(node)) parts.push(`matches ${code(node.pattern)}`);
  if (node.propertyNames?.pattern) parts.push(`names match ${code(node.propertyNames.pattern)}`);
  const items = node.items && !node.items.properties ? valuesOf(node.items) : "";
  if (items) parts.push(`each ${items}`);
  return parts.join("; ");
}

function presenceOf(node: JsonSchema, required: boolean): string {
  if (required) return "required";
  if (node.default === undefined) return "optional";
  // An object's default is its fields' own defaults, listed in their rows.
  const isObject = typeof node.default === "object" && node.default !== null && !Array.isArray(node.default);
  if (isObject && node.properties) return "optional (its fields' defaults)";
  return `default ${json(node.default)}`;
}

/** Every field of an object schema and of the objects within it, in the schema's order. */
export function fieldRows(schema: JsonSchema, prefix = ""): FieldRow[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, node]) => {
    const path = `${prefix}${name}`;
    const row: FieldRow = {
      path,
      type: typeOf(node),
      presence: presenceOf(node, schema.required?.includes(name) ?? false),
      values: valuesOf(node),
      description: node.description ?? "",
    };
    const nested = nestedObject(node);
    return [row, ...(nested ? fieldRows(nested.schema, `${path}${nested.suffix}.`) : [])];
  });
}

/** A table cell: one line, and a `|` that does not end the cell. */
const cell = (text: string) => text.replaceAll("\n", " ").replaceAll("|", "\\|");

export function markdownTable(headers: string[], rows: string[][]): string {
  const lines = [headers, headers.map(() => "---"), ...rows].map((row) => `| ${row.map(cell).join(" | ")} |`);
  return lines.join("\n");
}

/** The reference table of a file format: field, type, required or default, values, meaning. */
export function fieldTable(schema: JsonSchema): string {
  return markdownTable(
    ["Field", "Type", "Required / default", "Values", "Meaning"],
    fieldRows(schema).map((row) => [code(row.path), row.type, row.presence, row.values, row.description]),
  );
}
