import { createHash } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Observation, observationSchema } from "@fleet-alerts/core";
import { bagFolderName } from "@fleet-alerts/core/evidence";
import { describe, expect, it } from "vitest";
import { isObservation, type LocalLine, OBSERVATION_TYPES } from "../../packages/local/src/report.js";
import { runCommand } from "../support/run-script.js";

const LOCAL_TYPES = ["started", "problem", "evidence-copied", "notified", "local-summary"];

// Exactly as documented, through npm: npm's own script banner must not reach stdout either.
const start = (args: string[]) =>
  runCommand("npm", ["start", "--", "--json", ...args], { POWERTOOLS_METRICS_DISABLED: "true" });

/** Every stdout line as JSON with a `type`; observation lines must also satisfy their schema. */
function parseLines(stdout: string): LocalLine[] {
  const lines = stdout.trimEnd().split("\n");
  return lines.map((text, index) => {
    const line = JSON.parse(text) as { type?: unknown };
    expect(typeof line.type, `line ${index + 1}: ${text.slice(0, 120)}`).toBe("string");
    const typed = line as LocalLine;
    if (isObservation(typed)) {
      const parsed = observationSchema.safeParse(line);
      expect(parsed.error?.issues, `line ${index + 1}: ${text.slice(0, 120)}`).toBeUndefined();
    } else {
      expect(LOCAL_TYPES).toContain(typed.type);
    }
    return typed;
  });
}

describe("npm start -- --json", () => {
  it("prints one JSON line per observation, then a summary whose counts are those of the lines", async () => {
    const evidenceDir = await mkdtemp(join(tmpdir(), "fleet-alerts-json-"));
    const { code, stdout } = await start([
      ...["--duration", "10", "--speed", "300", "--poll-every", "1"],
      ...["--seed", "3", "--devices", "10", "--evidence-dir", evidenceDir],
      // Events without coordinates: the alerts are placed from the GPS track.
      ...["--event-coordinates", "null"],
    ]);
    expect(code).toBe(0);
    const lines = parseLines(stdout);
    expect(lines[0]?.type).toBe("started");
    const summary = lines.at(-1);
    if (summary?.type !== "local-summary") throw new Error(`the last line is ${JSON.stringify(summary)}`);
    expect(lines.filter((line) => line.type === "local-summary")).toHaveLength(1);

    const observations = lines.filter(isObservation);
    const ofType = <T extends Observation["type"]>(type: T) =>
      observations.filter((line): line is Extract<Observation, { type: T }> => line.type === type);
    for (const type of OBSERVATION_TYPES) expect(summary.observations[type], type).toBe(ofType(type).length);
    expect(summary.problems).toBe(lines.filter((line) => line.type === "problem").length);
    expect(summary.problems).toBe(0);
    expect(summary.eventsRead).toBe(ofType("poll-summary").reduce((sum, line) => sum + line.eventsRead, 0));

    const alerts = ofType("alert-published");
    // Two simulated fleets by default, two accounts each polled with its own cursor, each with alerts.
    expect(new Set(alerts.map((alert) => alert.account))).toEqual(new Set(["north", "south"]));
    expect(new Set(ofType("poll-summary").map((line) => line.account))).toEqual(new Set(["north", "south"]));
    const started = lines[0];
    if (started?.type !== "started") throw new Error("no started line");
    expect(started.accounts.map((account) => account.id)).toEqual(["north", "south"]);
    expect(started.groups.names).toEqual(["north-depot", "south-depot", "night-shift", "ops-digest"]);
    for (const alert of alerts) {
      expect(alert.serialno).toMatch(/^\d+$/);
      expect(alert.alertId).toContain(alert.serialno);
      expect(alert.severity).toMatch(/^(info|warning|critical)$/);
      expect(alert.body).toMatchObject({
        kind: "alert",
        alertId: alert.alertId,
        serialno: alert.serialno,
        ruleId: alert.rule,
        deviceid: alert.deviceid,
        severity: alert.severity,
      });
      expect(alert.sms).not.toBe("");
      // Where the vehicle was at the event and its speed, at the line's top level for jq.
      const { position, speedKmh } = alert as unknown as { position: unknown; speedKmh: unknown };
      expect(position).toEqual(
        alert.body.position && {
          lat: alert.body.position.lat,
          lng: alert.body.position.lng,
          source: alert.body.position.source,
        },
      );
      expect(speedKmh).toBe(alert.body.speedKmh);
      expect(alert.body.position?.source).not.toBe("event");
    }
    expect(alerts.filter((alert) => alert.body.position?.source === "track").length).toBeGreaterThan(0);

    // Stored evidence is in the evidence folder too, each clip hashing to what was observed.
    const stored = ofType("evidence-stored");
    expect(stored.length).toBeGreaterThan(0);
    // In its claim pack's folder, under the bag's own layout.
    const inFolder = (line: (typeof stored)[number], key: string) =>
      join(evidenceDir, bagFolderName(line.alertId), key.slice(line.bag.prefix.length));
    for (const line of stored) {
      for (const clip of line.clips) {
        const bytes = await readFile(inFolder(line, clip.key));
        expect(createHash("sha256").update(bytes).digest("hex")).toBe(clip.sha256);
      }
    }
    // And each stored track beside them, as the manifest hashed it.
    const tracks = stored.flatMap((line) =>
      line.track.status === "stored" ? [{ line, track: line.track }] : [],
    );
    expect(tracks.length).toBeGreaterThan(0);
    for (const { line, track } of tracks) {
      const bytes = await readFile(inFolder(line, track.key));
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(track.sha256);
    }
  });
});
