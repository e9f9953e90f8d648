/**
 * `npm start -- --json`: one JSON object per line, each with its `type`, for `jq` and tests. Every
 * observation as the handlers reported it, the local mode's own lines (`started`, `problem`,
 * `evidence-copied`, `local-summary`), and nothing else: download progress is left out. An alert
 * line also carries, at its top level, where the vehicle was at the event and how fast it went
 * (`position: {lat, lng, source}`, `speedKmh`; null when unknown), lifted from its body for `jq`.
 */
import type { AlertBody } from "@fleet-alerts/core/alerts";
import type { LocalLine } from "./report.js";

/** The line as JSON, or undefined when `--json` leaves it out. bigint-safe (as decimal digits). */
export function jsonLine(line: LocalLine): string | undefined {
  if (line.type === "evidence-progress") return undefined;
  const shown =
    line.type === "alert-published"
      ? { ...line, position: placeOf(line.body.position), speedKmh: line.body.speedKmh }
      : line;
  return JSON.stringify(shown, (_key, value: unknown) =>
    typeof value === "bigint" ? value.toString() : value,
  );
}

function placeOf(position: AlertBody["position"]) {
  return position && { lat: position.lat, lng: position.lng, source: position.source };
}
