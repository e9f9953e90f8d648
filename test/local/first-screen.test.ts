import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runScript } from "../support/run-script.js";

// Issue 33: what a first `npm start` shows on its first screen (40 lines of a terminal) is the
// alerts themselves, each placed, not every message to every recipient.

/**
 * `npm start` as a user runs it, on the default fleets and seed, for a few seconds at 300x: its
 * stdout's lines, and stdout and stderr as the terminal shows them.
 */
async function start(extra: string[]): Promise<{ lines: string[]; output: string }> {
  const evidenceDir = await mkdtemp(join(tmpdir(), "fleet-alerts-first-screen-"));
  const args = ["--seed", "1", "--duration", "6", "--speed", "300", "--poll-every", "1", ...extra];
  // Logging as a user's `npm start` has it (Powertools' default level), not the tests' SILENT.
  const { code, stdout, output } = await runScript(
    "packages/local/src/main.ts",
    [...args, "--evidence-dir", evidenceDir],
    { POWERTOOLS_METRICS_DISABLED: "true", POWERTOOLS_LOG_LEVEL: "INFO" },
  );
  expect(code).toBe(0);
  return { lines: stdout.split("\n"), output };
}

/** A block's first line: `HH:MM:SS ALERT [severity] rule #serial ...`. */
const ALERT = /^\d\d:\d\d:\d\d ALERT \[(info|warning|critical)\] \S+ #\d+ /;
/** What a message to one recipient looks like, under --verbose. */
const TO = /^\d\d:\d\d:\d\d TO /;

/** Each alert block of the lines: its first line and the indented lines under it. */
function alertBlocks(lines: string[]): string[][] {
  return lines.flatMap((line, index) => {
    if (!ALERT.test(line)) return [];
    const rest = lines.slice(index + 1);
    const end = rest.findIndex((next) => !next.startsWith("         "));
    return [[line, ...rest.slice(0, end === -1 ? rest.length : end)]];
  });
}

describe("npm start's first screen", () => {
  it("shows at least three alerts in its first 40 lines, each with its time, position, speed and recipients per channel; no TO lines", async () => {
    const { lines, output } = await start([]);
    // The live view is the view alone: no handler's structured log line (the parked-evidence sweep's
    // once printed one per account and run).
    expect(output).not.toMatch(/^\{"level"/m);
    const screen = lines.slice(0, 40);
    // Where the names went: said once, at the start.
    expect(screen).toContain(
      "Each alert's block counts its recipients per channel; --verbose shows each message sent.",
    );
    const blocks = alertBlocks(screen);
    expect(blocks.length, screen.join("\n")).toBeGreaterThanOrEqual(3);
    const placed = blocks.filter(([, where]) =>
      /^ {9}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC at -?\d+\.\d{4},-?\d+\.\d{4} \((event|track|last-known)\), /.test(
        where ?? "",
      ),
    );
    expect(placed.length, screen.join("\n")).toBeGreaterThanOrEqual(3);
    // Each block whole (the 40th line may cut the last one short).
    for (const block of alertBlocks(lines)) {
      // The serial number on the first line, and who it went to, counted per channel.
      expect(block[2]).toMatch(/; sent: (nobody now|((email|sms|targets) .+))$/);
      expect(block.some((line) => line.includes("SMS: "))).toBe(false);
    }
    // The simulator ran an hour before the clock started: the first alerts' footage is on the cards
    // (a disk error or a camera fault may still leave one without). How many are stored before the
    // stop depends on the machine's speed: one at least.
    const stored = blocks.filter(([first]) => {
      const [, rule, serialno] = /\] (\S+) #(\d+) /.exec(first ?? "") ?? [];
      return lines.some(
        (line) => line.includes(`-${serialno}-${rule}/data/ch`) && line.includes(" EVIDENCE stored "),
      );
    });
    expect(stored.length, lines.join("\n")).toBeGreaterThanOrEqual(1);
    expect(screen.filter((line) => TO.test(line))).toEqual([]);
    expect(lines.filter((line) => TO.test(line))).toEqual([]);
    expect(lines.some((line) => /^Summary: \d+ events read, [1-9]\d* alerts/.test(line))).toBe(true);
  }, 120_000);

  it("with --verbose, also shows each alert's SMS and a TO line per message a recipient got", async () => {
    const { lines } = await start(["--verbose"]);
    expect(lines.some((line) => line.includes("--verbose shows"))).toBe(false);
    expect(lines.filter((line) => TO.test(line)).length).toBeGreaterThan(0);
    const blocks = alertBlocks(lines);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(block.some((line) => line.startsWith("         SMS: "))).toBe(true);
  }, 120_000);
});
