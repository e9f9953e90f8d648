import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import type { Observation } from "@fleet-alerts/core";
import { type AlertRecord, AlertStore } from "@fleet-alerts/core/alerts";
import { RecorderHealthStore } from "@fleet-alerts/core/recorder";
import { afterEach, describe, expect, it } from "vitest";
import { createRecorderAuditHandler } from "../../packages/functions/src/recorder-audit.js";
import { alertsOf, drainInbox, type Pipeline, startPipeline } from "../core/poller/pipeline.js";
import { DAY_START, drivingStretch } from "../core/recorder/scenario.js";

const MINUTE_MS = 60_000;
let pipeline: Pipeline | undefined;
afterEach(async () => {
  await pipeline?.close();
  pipeline = undefined;
});

/**
 * The recorder-audit function end to end: the simulator as the device cloud (its day run from the
 * hour before DAY_START to 36 minutes past its end), dynalite and fauxqs as AWS, the handler
 * configured through its environment, on the simulator's clock.
 */
async function auditedDay(devices: number, audit: object = {}) {
  pipeline = await startPipeline({
    simulator: {
      seed: 5,
      devices,
      historyHours: 1,
      // The tests fail cameras themselves: a random failure would be a gap of its own.
      randomCameraFailures: false,
      clock: { start: new Date(DAY_START - 3_600_000) },
    },
    rules: [{ id: "shock", events: ["GSensor"], severity: "critical" }],
  });
  const { simulator, env, emulators } = pipeline;
  const ids = simulator.control.devices().map((device) => device.deviceid);
  simulator.control.advance(DAY_START + 86_400_000 + 36 * MINUTE_MS - simulator.control.now().getTime());
  const observations: Observation[] = [];
  const handler = createRecorderAuditHandler(
    { ...env, RECORDER_AUDIT: JSON.stringify(audit) },
    {
      observer: { observe: (line) => observations.push(line) },
      now: () => simulator.control.now().getTime(),
    },
  );
  const table = { documents: emulators.clients.documents, tableName: emulators.tableName };
  return {
    ids,
    observations,
    run: () => handler({ account: "north" }, { getRemainingTimeInMillis: () => 300_000 }),
    table,
    pipeline,
  };
}

async function notRecordingRecords(world: Awaited<ReturnType<typeof auditedDay>>): Promise<AlertRecord[]> {
  const store = new AlertStore(world.table);
  const gaps = world.observations.filter((line) => line.type === "recorder-gap");
  const records = await Promise.all(
    gaps.map((gap) => store.get("north", BigInt(gap.serialno), "not-recording")),
  );
  return records.filter((record) => record !== undefined);
}

describe("the recorder-audit function on the emulators", () => {
  it("writes a failed camera's alert record once and publishes it once; a re-run raises nothing new", async () => {
    const world = await auditedDay(6);
    const failed = drivingStretch(world.pipeline.simulator, world.ids, 20);
    world.pipeline.simulator.control.setRecording(
      failed.deviceid,
      new Date(failed.fromMs),
      new Date(failed.toMs),
      0,
    );

    expect(await world.run()).toEqual([expect.objectContaining({ outcome: "done", devicesAudited: 6 })]);
    const records = await notRecordingRecords(world);
    const failedOnes = records.filter((record) => record.deviceid === failed.deviceid);
    expect(failedOnes).toEqual([
      expect.objectContaining({ status: "published", eventtime: new Date(failed.fromMs).toISOString() }),
    ]);
    const published = alertsOf(await drainInbox(world.pipeline.emulators), "north").filter((alert) =>
      alert.key.endsWith("/not-recording"),
    );
    expect(published.map((alert) => alert.key)).toEqual(
      records.map((record) => `${record.serialno}/not-recording`),
    );

    // The next run finds the period done; a lost cursor audits it again and finds the same records.
    expect(await world.run()).toEqual([expect.objectContaining({ outcome: "idle", calls: 0 })]);
    await world.table.documents.send(
      new DeleteCommand({
        TableName: world.table.tableName,
        Key: { pk: "ACCOUNT#north", sk: "RECORDERAUDIT" },
      }),
    );
    expect(await world.run()).toEqual([expect.objectContaining({ outcome: "done", devicesAudited: 6 })]);
    expect(
      alertsOf(await drainInbox(world.pipeline.emulators), "north").filter((alert) =>
        alert.key.endsWith("/not-recording"),
      ),
    ).toEqual([]);
    expect(world.observations.filter((line) => line.type === "recorder-gap")).toHaveLength(records.length);
  });

  it("spreads a fleet over runs within its call budget and audits every device once", async () => {
    const world = await auditedDay(16, { callsPerRun: 100 });
    const outcomes: string[] = [];
    for (let run = 0; run < 10 && outcomes.at(-1) !== "idle"; run++) {
      const [summary] = await world.run();
      outcomes.push(String(summary?.outcome));
      expect(summary?.calls).toBeLessThanOrEqual(100);
    }
    expect(outcomes.filter((outcome) => outcome === "budget").length).toBeGreaterThanOrEqual(1);
    expect(outcomes.at(-1)).toBe("idle");
    const audited = [];
    for await (const device of new RecorderHealthStore(world.table).devices("north")) audited.push(device);
    expect(audited.map((device) => device.deviceid).sort()).toEqual([...world.ids].sort());
    expect(new Set(audited.map((device) => device.periodStartMs))).toEqual(new Set([DAY_START]));
    const summaries = world.observations.filter((line) => line.type === "recorder-audit-summary");
    expect(summaries.reduce((sum, line) => sum + line.devicesAudited + line.failures, 0)).toBe(16);
  });
});
