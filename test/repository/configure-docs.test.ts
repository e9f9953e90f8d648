import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { stageConfigSchema } from "../../infra/stage-config.js";
import { groupsFileSchema } from "../../packages/core/src/routing/groups-schema.js";
import { rulesFileSchema } from "../../packages/core/src/rules/schema.js";
import { FILE_FORMATS, type FileFormat, schemaFileOf } from "../../scripts/docs/config-formats.js";
import { configureDocs, jsonSchemaOf } from "../../scripts/docs/configure-docs.js";
import { fieldRows, type JsonSchema } from "../../scripts/docs/json-schema-table.js";

const generated = configureDocs();

/**
 * The repository's files of a format, as git knows them: not the stage files other tests write for
 * a moment (test/infra/stage-config.test.ts), which may be there while this file runs.
 */
function filesOf(format: FileFormat): string[] {
  return format.files.flatMap(({ folder, prefix }) =>
    execFileSync("git", ["ls-files", "--", `${folder}/${prefix}*.json`], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean),
  );
}

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

/**
 * What a JSON Schema says of a value, as far as these files need: the fields it names, the ones it
 * requires, and the JSON type of each. No validator is installed: this is the part an editor's
 * check would flag first, and zod checks the rest.
 */
function schemaProblems(value: unknown, schema: JsonSchema, path: string): string[] {
  const types = [schema.type ?? schema.anyOf?.map((choice) => choice.type) ?? []].flat();
  const kind = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
  const fits = (type: unknown) =>
    type === kind ||
    (type === "integer" && Number.isInteger(value)) ||
    (type === "number" && kind === "number");
  if (types.length > 0 && !types.some(fits))
    return [`${path}: ${kind} where the schema says ${types.join(" or ")}`];
  if (Array.isArray(value))
    return value.flatMap((item, index) =>
      schema.items ? schemaProblems(item, schema.items, `${path}[${index}]`) : [],
    );
  if (kind !== "object") return [];
  const object = value as Record<string, unknown>;
  const missing = (schema.required ?? [])
    .filter((key) => !(key in object))
    .map((key) => `${path}.${key}: missing`);
  const fields = Object.entries(object).flatMap(([key, item]) => {
    const field =
      schema.properties?.[key] ??
      (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
    return field ? schemaProblems(item, field, `${path}.${key}`) : [`${path}.${key}: not in the schema`];
  });
  return [...missing, ...fields];
}

describe("docs/configure.md and schemas/*.schema.json", () => {
  it.each(generated.map((file) => [file.path, file.text]))(
    "%s is what the schemas make now",
    (path, text) => {
      const onDisk = existsSync(path) ? readFileSync(path, "utf8") : "(missing)";
      expect(onDisk === text, `${path} is stale: run npm run docs:configure`).toBe(true);
    },
  );

  it("writes one JSON Schema per file format, named and titled, and nothing else under schemas/", () => {
    expect(readdirSync("schemas").sort()).toEqual(
      FILE_FORMATS.map((format) => `${format.name}.schema.json`).sort(),
    );
    for (const format of FILE_FORMATS) {
      const schema = jsonSchemaOf(format);
      expect(schema.$id).toBe(`urn:fleet-alerts:schema:${format.name}`);
      expect(schema.title).toEqual(expect.any(String));
      expect(schema.additionalProperties, "strict: a misspelt field is flagged").toBe(false);
    }
  });

  it("gives every field and variable a meaning", () => {
    const environments = generated[0]?.text.split("## Environment variables")[1] ?? "";
    const rows = FILE_FORMATS.flatMap((format) => fieldRows(jsonSchemaOf(format)));
    expect(rows.length).toBeGreaterThan(80);
    expect(rows.filter((row) => row.description === "").map((row) => row.path)).toEqual([]);
    const blank = environments.split("\n").filter((line) => line.startsWith("| `") && line.endsWith("|  |"));
    expect(blank).toEqual([]);
  });
});

describe("the repository's configuration files", () => {
  it.each(FILE_FORMATS.map((format) => [format.name, format]))(
    "each %s file names its JSON Schema, passes it and passes the zod schema",
    (_name, format) => {
      const files = filesOf(format);
      expect(files.length).toBeGreaterThan(0);
      const schema = jsonSchemaOf(format);
      for (const file of files) {
        const value = readJson(file);
        expect(normalize(join(dirname(file), String(value.$schema))), file).toBe(schemaFileOf(format));
        expect(schemaProblems(value, schema, file)).toEqual([]);
        const parsed = format.schema.safeParse(value);
        expect(parsed.error?.issues ?? [], file).toEqual([]);
      }
    },
  );

  it.each(FILE_FORMATS.map((format) => [format.name, format]))(
    "a %s file with a made-up field is refused by zod and flagged by the JSON Schema",
    (_name, format) => {
      const [file] = filesOf(format);
      const value = { ...readJson(String(file)), madeUpField: true };
      const issues = format.schema.safeParse(value).error?.issues ?? [];
      expect(issues.map((issue) => issue.code)).toContain("unrecognized_keys");
      expect(schemaProblems(value, jsonSchemaOf(format), "file")).toEqual([
        "file.madeUpField: not in the schema",
      ]);
    },
  );

  it("the strict file schemas accept a $schema string, and only a string", () => {
    const minimal = [
      [stageConfigSchema, {}],
      [rulesFileSchema, { rules: [{ id: "crash", events: ["GSensor"], severity: "critical" }] }],
      [groupsFileSchema, { groups: [{ name: "ops", email: ["ops@example.com"] }] }],
    ] as const;
    for (const [schema, file] of minimal) {
      expect(schema.safeParse({ $schema: "../schemas/x.schema.json", ...file }).success).toBe(true);
      expect(schema.safeParse({ $schema: 1, ...file }).success).toBe(false);
    }
  });
});
