import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../../packages/functions/src/cli.ts", import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function fleetAlerts(...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, "close")) as [number | null];
  return { code, stdout, stderr };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rules-cli-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileWith(name: string, json: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(json, null, 2));
  return path;
}

describe("fleet-alerts rules check", () => {
  it("prints the effective rules of a valid file and exits 0", async () => {
    const path = await fileWith("good.json", {
      rules: [
        {
          id: "speeding-trucks",
          events: ["overspeed", 13],
          devices: { prefixes: ["TRK-"] },
          severity: "warning",
        },
        { id: "impact", events: [16], severity: "critical", cooldownSeconds: 120, enabled: false },
      ],
    });
    const run = await fleetAlerts("rules", "check", path);
    expect(run).toEqual({
      code: 0,
      stdout:
        `${path}: valid, 2 rules:\n` +
        "speeding-trucks [warning] OverSpeed(13) device TRK-*, no cooldown\n" +
        "impact [critical] (disabled) GSensor(16) all devices, cooldown 2 min\n",
      stderr: "",
    });
  });

  it("prints every problem as path: message and exits 1", async () => {
    const path = await fileWith("bad.json", {
      rules: [
        { id: "a", events: ["Overspeeed"], severity: "warning", offlineForMinutes: 5 },
        {
          id: "a",
          events: [13],
          severity: "urgent",
          evidence: { channels: [1, 1], secondsBefore: 0, secondsAfter: 0 },
        },
      ],
    });
    const run = await fleetAlerts("rules", "check", path);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `${path}: 5 problems:\n` +
        'rules.0.events.0: unknown event name "Overspeeed" (did you mean "OverSpeed"?)\n' +
        'rules.1.severity: Invalid option: expected one of "info"|"warning"|"critical"\n' +
        "rules.1.evidence.channels: must not repeat a channel\n" +
        "rules.1.evidence: secondsBefore and secondsAfter must not both be 0 (the clip would be empty)\n" +
        'rules.1.id: duplicate rule id "a" (first used by rules.0)\n',
    });
  });

  it("reports a file that is not JSON, or missing, and exits 1", async () => {
    const notJson = join(dir, "broken.json");
    await writeFile(notJson, '{ "rules": [ }');
    expect(await fleetAlerts("rules", "check", notJson)).toMatchObject({
      code: 1,
      stderr: `${notJson}: 1 problem:\n(json): not valid JSON: Unexpected token '}'\n`,
    });
    const missing = join(dir, "missing.json");
    expect(await fleetAlerts("rules", "check", missing)).toMatchObject({
      code: 1,
      stderr: `${missing}: 1 problem:\n(file): cannot be read: no such file\n`,
    });
  });

  it("prints the default rules without a file", async () => {
    const run = await fleetAlerts("rules", "check");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")).toEqual([
      "Default rules (6 rules):",
      "overspeed [warning] OverSpeed(13) all devices, cooldown 5 min, stale after 6 h, evidence ch1 -30 s/+30 s",
      "gsensor [critical] GSensor(16) all devices, cooldown 1 min, stale after 6 h, evidence ch1+ch2 -15 s/+15 s, escalate after 10 min per level, 2 levels",
      "offline [warning] Offline(3) all devices, after 10 min offline, cooldown 30 min, stale after 6 h",
      "disk-error [critical] DiskError(12) all devices, cooldown 1 h, stale after 6 h",
      "video-loss [warning] VideoLoss(15) all devices, cooldown 1 h, stale after 6 h",
      "lost-record-cover [warning] Lost Record Cover(98) all devices, cooldown 6 h, stale after 6 h",
      "",
    ]);
  });

  it("has --help on the program and on each command", async () => {
    const program = await fleetAlerts("--help");
    expect(program.code).toBe(0);
    expect(program.stdout).toMatch(/^Usage: fleet-alerts /);
    expect(program.stdout).toMatch(/\n {2}rules\s+work with alert rules files/);

    const rules = await fleetAlerts("rules", "--help");
    expect(rules.code).toBe(0);
    expect(rules.stdout).toMatch(/^Usage: fleet-alerts rules /);
    expect(rules.stdout).toContain("check [file]");

    const check = await fleetAlerts("rules", "check", "--help");
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/^Usage: fleet-alerts rules check \[options\] \[file\]/);
    expect(check.stdout).toContain("rules file (JSON)");
  });

  it("refuses an unknown command with exit code 1", async () => {
    const run = await fleetAlerts("rules", "lint");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("unknown command 'lint'");
  });
});
