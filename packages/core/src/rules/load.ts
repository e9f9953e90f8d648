import { readFile } from "node:fs/promises";
import type { ValidationIssue } from "../devicecloud/errors.js";
import { parseRules } from "./parse.js";
import type { Rule } from "./schema.js";

/** A rules file that cannot be read, is not JSON, or does not match the schema. */
export class InvalidRulesError extends Error {
  constructor(
    /** The file's path. */
    readonly source: string,
    readonly problems: ValidationIssue[],
  ) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    const listed = problems.map((problem) => `\n  ${problem.path}: ${problem.message}`).join("");
    super(`invalid rules file ${source} (${count}):${listed}`);
    this.name = "InvalidRulesError";
  }
}

/** Reads, parses and validates a rules file. Throws InvalidRulesError listing every problem. */
export async function loadRulesFile(path: string): Promise<Rule[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new InvalidRulesError(path, [{ path: "(file)", message: `cannot be read: ${readFailure(error)}` }]);
  }
  const json = parseJson(text);
  if (!json.ok) throw new InvalidRulesError(path, [{ path: "(json)", message: json.message }]);
  const result = parseRules(json.value);
  if (!result.ok) throw new InvalidRulesError(path, result.problems);
  return result.rules;
}

function readFailure(error: unknown): string {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "it is a directory";
    default:
      return code ?? String(error);
  }
}

type JsonResult = { ok: true; value: unknown } | { ok: false; message: string };

function parseJson(fileText: string): JsonResult {
  // Editors on Windows may save a byte order mark, which JSON.parse refuses.
  const text = fileText.replace(/^\uFEFF/, "");
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: describeSyntaxError(error, text) };
  }
}

/**
 * "not valid JSON", with the line and column when the engine gives a position. The engine's own
 * message is used only in the forms known to hold no file content: V8 quotes part of the text in
 * some of its messages, and a rules file has no business appearing in logs.
 */
function describeSyntaxError(error: unknown, text: string): string {
  const message = error instanceof SyntaxError ? error.message : "";
  const positioned = /^([^"]*?)(?: in JSON)? at position (\d+)/.exec(message);
  if (positioned?.[1] !== undefined && positioned[2] !== undefined) {
    const { line, column } = lineAndColumn(text, Number(positioned[2]));
    return `not valid JSON at line ${line}, column ${column}: ${positioned[1]}`;
  }
  const unexpected = /^(Unexpected token '.{1,4}'), .* is not valid JSON$/s.exec(message);
  if (unexpected?.[1] !== undefined) return `not valid JSON: ${unexpected[1]}`;
  if (message === "Unexpected end of JSON input") return "not valid JSON: it ends too early";
  return "not valid JSON";
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: position - lineStart + 1 };
}
