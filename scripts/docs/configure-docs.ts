import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as z from "zod";
import { EVENT_CODES } from "../../packages/core/src/devicecloud/codes.js";
import { DEFAULT_RULES } from "../../packages/core/src/rules/defaults.js";
import { describeRule } from "../../packages/core/src/rules/describe.js";
import {
  ACCOUNTS_FORMAT,
  FILE_FORMATS,
  type FileFormat,
  FUNCTION_ENVIRONMENTS,
  schemaFileOf,
} from "./config-formats.js";
import { formatJson } from "./json-format.js";
import { fieldTable, type JsonSchema, markdownTable, typeOf, valuesOf } from "./json-schema-table.js";

/**
 * docs/configure.md and schemas/*.schema.json, made from the zod schemas that check the files and
 * the environments: the reference cannot drift from what the code accepts. Pure, so that a test
 * can compare it with the files in the repository (test/repository/configure-docs.test.ts).
 */

const TEMPLATE = fileURLToPath(new URL("configure.template.md", import.meta.url));

/** What the files accept, as written: defaults are optional, and transforms' inputs are shown. */
const inputSchemaOf = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;

/** A format's JSON Schema, named so that editors show its title and tools can refer to it. */
export function jsonSchemaOf(format: FileFormat): JsonSchema {
  const { $schema, ...rest } = inputSchemaOf(format.schema);
  return { $schema, $id: `urn:fleet-alerts:schema:${format.name}`, title: format.title, ...rest };
}

/**
 * How a variable's text is read: JSON (shown as what it must hold), a number (with the bounds it
 * is checked against after conversion), or as written.
 */
function readAs(input: JsonSchema, output: JsonSchema): string {
  const kind = typeOf(output);
  const shown = (node: JsonSchema, prefix = "") =>
    [`${prefix}${typeOf(node)}`, valuesOf(node)].filter(Boolean).join("; ");
  if (input.type === "string" && (output.type === "object" || output.type === "array"))
    return shown(output, "JSON: ");
  if (input.type === "number" || input.type === "integer")
    return kind === "any" ? shown(input) : shown(output);
  return shown(input);
}

function environmentTable(schema: z.ZodType): string {
  const input = inputSchemaOf(schema);
  const output = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  const rows = Object.entries(input.properties ?? {}).map(([name, node]) => {
    const presence = input.required?.includes(name)
      ? "required"
      : node.default === undefined
        ? "optional"
        : `default \`${String(node.default)}\``;
    return [`\`${name}\``, presence, readAs(node, output.properties?.[name] ?? {}), node.description ?? ""];
  });
  return markdownTable(["Variable", "Required / default", "Read as", "Meaning"], rows);
}

function environmentTables(): string {
  return FUNCTION_ENVIRONMENTS.map(({ name, schema }) => `### ${name}\n\n${environmentTable(schema)}`).join(
    "\n\n",
  );
}

const eventNames = () =>
  Object.entries(EVENT_CODES)
    .map(([name, code]) => `\`${name}\` (${code})`)
    .join(", ");

export interface GeneratedFile {
  path: string;
  text: string;
}

/** Every generated file, by its path from the repository root. */
export function configureDocs(): GeneratedFile[] {
  const tables: Record<string, string> = {
    ...Object.fromEntries(
      FILE_FORMATS.map((format) => [format.name, fieldTable(inputSchemaOf(format.schema))]),
    ),
    [ACCOUNTS_FORMAT.name]: fieldTable(inputSchemaOf(ACCOUNTS_FORMAT.schema)),
    environments: environmentTables(),
    eventNames: eventNames(),
    defaultRules: ["```text", ...DEFAULT_RULES.map(describeRule), "```"].join("\n"),
  };
  const markdown = readFileSync(TEMPLATE, "utf8").replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => {
    const table = tables[name];
    if (table === undefined) throw new Error(`configure.template.md: unknown placeholder ${placeholder}`);
    return table;
  });
  return [
    { path: "docs/configure.md", text: markdown },
    ...FILE_FORMATS.map((format) => ({
      path: schemaFileOf(format),
      text: formatJson(jsonSchemaOf(format)),
    })),
  ];
}
