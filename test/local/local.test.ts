import { createHash } from "node:crypto";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { bagFolderName, openFolderBag, verifyBag } from "@fleet-alerts/core/evidence";
import { ShareStore } from "@fleet-alerts/core/share";
import { describe, expect, it } from "vitest";
import { type LocalPipeline, startLocalPipeline } from "../../packages/local/src/pipeline.js";
import type { LocalLine } from "../../packages/local/src/report.js";
import { runScript } from "../support/run-script.js";

const CODES: Record<string, number> = {
  overspeed: 13,
  gsensor: 16,
  offline: 3,
  "disk-error": 12,
  "video-loss": 15,
  "lost-record-cover": 98,
};

/**
 * The incident page's claim-pack download in local mode: the app asks, the local evidence function
 * (the evidence queue delivered to the real handler) builds the zip, and the next request gets it.
 */
async function downloadsClaimPackZip(pipeline: LocalPipeline, shown: LocalLine[]): Promise<void> {
  const stored = shown.find((line) => line.type === "evidence-stored");
  const started = shown.find((line) => line.type === "started");
  if (stored?.type !== "evidence-stored" || started?.type !== "started")
    throw new Error("no evidence stored");
  // The handlers live by the simulator's clock: the link is made and checked by it.
  const nowMs = pipeline.simulators.get("north")?.control.now().getTime() ?? Date.now();
  const { documents } = pipeline.emulators.clients;
  const share = await new ShareStore({ documents, tableName: pipeline.emulators.tableName }).create(
    {
      alertId: stored.alertId,
      account: stored.account,
      serialno: BigInt(stored.serialno),
      ruleId: stored.rule,
      scope: "view",
      createdBy: "test",
      expiresAtMs: nowMs + 30 * 86_400_000,
    },
    nowMs,
  );
  const pack = () => fetch(`${started.incident}/i/${share.token}/pack`, { redirect: "manual" });
  expect((await pack()).status).toBe(200);
  // Measured on the wall clock: on a loaded runner the evidence function may take a while to build it.
  const deadline = Date.now() + 30_000;
  while (!shown.some((line) => line.type === "claim-pack-zipped")) {
    expect(Date.now()).toBeLessThan(deadline);
    await sleep(100);
  }
  const ready = await pack();
  expect(ready.status).toBe(302);
  const zip = await fetch(ready.headers.get("location") as string);
  expect(
    Buffer.from(await zip.arrayBuffer())
      .subarray(0, 2)
      .toString(),
  ).toBe("PK");
}

describe("the local mode", () => {
  it("runs the pipeline on the simulator and emulators: alerts, inbox and evidence files agree with the ground truth", async () => {
    const evidenceDir = await mkdtemp(join(tmpdir(), "fleet-alerts-local-"));
    const shown: LocalLine[] = [];
    const pipeline = await startLocalPipeline(
      {
        // Per fleet, two fleets: ten devices in all.
        devices: 5,
        seed: 3,
        speed: 300,
        pollEverySeconds: 0.5,
        evidenceDir,
        fleetTimeZone: "Europe/Berlin",
      },
      (line) => shown.push(line),
    );
    // A subscriber of our own on the alerts topic, as a fleet manager's phone would be.
    const subscriber = await pipeline.emulators.subscribeQueue({ kind: ["alert"] });
    await sleep(6_000);
    await downloadsClaimPackZip(pipeline, shown);
    const received = await subscriber.read({ atLeast: 0, waitMs: 500 });
    const summary = await pipeline.stop();
    // Each account's ground truth: its own simulator's events, read once nothing polls any more (a
    // poll under way when the pipeline was told to stop may have read events newer than a read
    // taken before).
    const events = new Map(
      [...pipeline.simulators].map(([account, simulator]) => [account, simulator.control.events()]),
    );

    expect(shown.filter((line) => line.type === "problem")).toEqual([]);
    expect(summary.problems).toBe(0);
    const alerts = shown.filter((line) => line.type === "alert-published");
    expect(alerts.length).toBeGreaterThan(3);
    expect(summary.observations["alert-published"]).toBe(alerts.length);
    expect(shown.at(-1)).toEqual({ type: "local-summary", ...summary });
    // Two fleets by default, each with alerts.
    expect(new Set(alerts.map((alert) => alert.account))).toEqual(new Set(["north", "south"]));
    const byAccountSerial = new Map(
      [...events].flatMap(([account, list]) =>
        list.map((event) => [`${account}/${event.serialno.toString()}`, event] as const),
      ),
    );
    // The recorder audit's not-recording alerts are raised by no event (their serials are synthetic).
    for (const alert of alerts.filter((candidate) => candidate.rule !== "not-recording")) {
      const event = byAccountSerial.get(`${alert.account}/${alert.serialno}`);
      expect(event?.appdevid, `${alert.rule} #${alert.serialno}`).toBe(CODES[alert.rule]);
      expect(event?.deviceid).toBe(alert.deviceid);
      expect(alert.sms.length).toBeLessThanOrEqual(160);
      expect(alert.body).toMatchObject({
        serialno: alert.serialno,
        ruleId: alert.rule,
        deviceid: alert.deviceid,
      });
    }
    // Every message the subscriber got was shown, once.
    const shownKeys = alerts.map((alert) => `${alert.account}/${alert.serialno}/${alert.rule}`);
    expect(new Set(shownKeys).size).toBe(shownKeys.length);
    for (const message of received) {
      const body = JSON.parse(message.bodies?.default ?? message.raw) as {
        account: string;
        serialno: string;
        ruleId: string;
      };
      expect(shownKeys).toContain(`${body.account}/${body.serialno}/${body.ruleId}`);
    }
    // Each settled evidence set is on disk as its claim pack, a bag that verifies, with its report.
    const copied = shown.filter((line) => line.type === "evidence-copied");
    expect(copied.map((line) => line.alertId).sort()).toEqual(
      shown
        .filter((line) => line.type === "evidence-stored" || line.type === "evidence-unavailable")
        .map((line) => line.alertId)
        .sort(),
    );
    for (const line of copied) {
      expect(line.report).toBe(join(evidenceDir, bagFolderName(line.alertId), "report.html"));
      const bag = await openFolderBag(dirname(line.report));
      const { problems } = await verifyBag(bag).finally(() => bag.close());
      expect(problems).toEqual([]);
    }
    const clips = copied.flatMap((line) => line.clips);
    expect(clips.length).toBeGreaterThan(0);
    // Downloads report their progress, up to the announced size.
    const progress = shown.filter((line) => line.type === "evidence-progress");
    expect(progress.length).toBeGreaterThanOrEqual(clips.length);
    for (const report of progress)
      expect(report.bytes).toBeLessThanOrEqual(report.totalBytes ?? Number.POSITIVE_INFINITY);
    expect(progress.some((report) => report.bytes === report.totalBytes)).toBe(true);
    for (const clip of clips) {
      const bytes = await readFile(clip.file);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(clip.sha256);
      const manifest = JSON.parse(
        await readFile(join(dirname(dirname(clip.file)), "manifest.json"), "utf8"),
      ) as {
        clips: { sha256: string; bytes: number }[];
      };
      expect(manifest.clips.map((entry) => entry.sha256)).toContain(clip.sha256);
      expect(bytes.length).toBe(clip.bytes);
    }
  }, 60_000);
});

// What a run shows (alerts, the summary, the exit status): first-screen.test.ts.
describe("npm start", () => {
  const run = (args: string[]) =>
    // Logging as a user's `npm start` has it (Powertools' default level), not the tests' SILENT.
    runScript("packages/local/src/main.ts", args, {
      POWERTOOLS_METRICS_DISABLED: "true",
      POWERTOOLS_LOG_LEVEL: "INFO",
    });

  it("refuses an invalid rules file, listing every problem, before starting anything (--json: as a problem line)", async () => {
    const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-rules-"));
    const rules = join(folder, "rules.json");
    await writeFile(
      rules,
      JSON.stringify({ rules: [{ id: "x", events: ["Overspeeed"], severity: "loud" }] }),
    );
    const { code, output } = await run(["--rules", rules]);
    expect(code).toBe(1);
    expect(output).toMatch(/rules\.0\.events\.0: unknown event name "Overspeeed"/);
    expect(output).toMatch(/rules\.0\.severity/);
    expect(output).not.toMatch(/locally:/);
    // With --json, stdout has the same as one problem line, and nothing else.
    const json = await run(["--json", "--rules", rules]);
    expect(json.code).toBe(1);
    expect(
      json.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([{ type: "problem", message: expect.stringMatching(/unknown event name "Overspeeed"/) }]);
  });
});
