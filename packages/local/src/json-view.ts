/**
 * `npm start -- --json`: one JSON object per line, each with its `type`, for `jq` and tests. Every
 * observation as the handlers reported it, the local mode's own lines (`started`, `problem`,
 * `evidence-copied`, `local-summary`), and nothing else: download progress is left out.
 */
import type { LocalLine } from "./report.js";

/** The line as JSON, or undefined when `--json` leaves it out. bigint-safe (as decimal digits). */
export function jsonLine(line: LocalLine): string | undefined {
  if (line.type === "evidence-progress") return undefined;
  return JSON.stringify(line, (_key, value: unknown) =>
    typeof value === "bigint" ? value.toString() : value,
  );
}
