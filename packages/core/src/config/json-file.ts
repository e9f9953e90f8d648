import { readFile } from "node:fs/promises";
import type { ValidationIssue } from "../devicecloud/errors.js";

/**
 * A configuration file (rules, groups) read as JSON. The problem, when there is one, names the
 * file's failure or the JSON's position and never quotes the file: its content stays out of logs.
 */
export type JsonFileResult = { ok: true; value: unknown } | { ok: false; problem: ValidationIssue };

export async function readJsonFile(path: string): Promise<JsonFileResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return { ok: false, problem: { path: "(file)", message: `cannot be read: ${readFailure(error)}` } };
  }
  const json = parseJson(text);
  return json.ok ? json : { ok: false, problem: { path: "(json)", message: json.message } };
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

type JsonTextResult = { ok: true; value: unknown } | { ok: false; message: string };

function parseJson(fileText: string): JsonTextResult {
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
 * some of its messages, and a configuration file has no business appearing in logs.
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
