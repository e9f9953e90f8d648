import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bagFolderName } from "@fleet-alerts/core/evidence";
import type { Simulator } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalPipeline, startLocalPipeline } from "../../packages/local/src/pipeline.js";
import type { LocalLine } from "../../packages/local/src/report.js";
import { fleetAlerts } from "../functions/cli/run.js";

let dir: string;
let endpointsFile: string;
let pipeline: LocalPipeline;
let stopped = false;
const shown: LocalLine[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fleet-alerts-local-request-"));
  endpointsFile = join(dir, "endpoints.json");
  pipeline = await startLocalPipeline(
    {
      accounts: ["north"],
      devices: 3,
      seed: 5,
      speed: 60,
      pollEverySeconds: 1,
      evidenceDir: join(dir, "evidence"),
      fleetTimeZone: "UTC",
      endpointsFile,
    },
    (line) => shown.push(line),
  );
});
afterAll(async () => {
  if (pipeline && !stopped) await pipeline.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("footage on request in the local mode", () => {
  it("takes `evidence request --local` from another terminal: the bag lands in its evidence folder", async () => {
    const simulator = pipeline.simulators.get("north") as Simulator;
    const deviceid = simulator.control.devices()[0]?.deviceid as string;
    // Three minutes before the local mode's now, recorded.
    const at = new Date(simulator.control.now().getTime() - 180_000);
    simulator.control.setRecording(
      deviceid,
      new Date(at.getTime() - 120_000),
      new Date(at.getTime() + 120_000),
      1,
    );
    const run = await fleetAlerts(
      [
        "evidence",
        "request",
        "--local",
        endpointsFile,
        "--device",
        deviceid,
        "--at",
        at.toISOString(),
        "--reason",
        "Claim 9: a cyclist reports a near miss",
        "--wait",
        "15",
      ],
      // The local mode's file is the whole connection: no stage setting is needed, nor used.
      { env: { TABLE_NAME: undefined, EVIDENCE_QUEUE_URL: undefined, PUBLIC_BASE_URL: undefined } },
    );
    expect(run.code, run.stderr).toBe(0);
    const alertId = /^footage requested: (north:9\d{39}:on-request)$/m.exec(run.stdout)?.[1] as string;
    const incident = shown.find((line) => line.type === "started");
    expect(run.stdout).toContain(`${(incident as { incident: string }).incident}/i/`);
    const folder = join(dir, "evidence", bagFolderName(alertId));
    expect(run.stdout).toContain(`claim pack ready: ${folder}\n`);
    const verified = await fleetAlerts(["evidence", "verify", folder]);
    expect(verified.code, verified.stdout).toBe(0);
    expect(shown.filter((line) => line.type === "problem")).toEqual([]);
    expect(shown).toContainEqual(expect.objectContaining({ type: "evidence-stored", alertId }));
  }, 60_000);

  it("removes its endpoints file when it stops: --local then says no local mode runs", async () => {
    expect(existsSync(endpointsFile)).toBe(true);
    await pipeline.stop();
    stopped = true;
    expect(existsSync(endpointsFile)).toBe(false);
    const run = await fleetAlerts([
      "evidence",
      "request",
      "--local",
      endpointsFile,
      "--device",
      "d",
      "--at",
      "2026-01-01",
      "--reason",
      "r",
    ]);
    expect(run.stderr).toContain(`no local mode running: ${endpointsFile} not found`);
  }, 30_000);
});
