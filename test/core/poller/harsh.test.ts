import { GetCommand } from "@aws-sdk/lib-dynamodb";
import type { PollSummary } from "@fleet-alerts/core/poller";
import type { EventQueryHarshOptions, FaultRule, SimEvent } from "@fleet-alerts/simulator";
import { afterEach, describe, expect, it } from "vitest";
import { alertsOf, drainInbox, startPipeline } from "./pipeline.js";

const RULES = [
  { id: "speed", events: [13], severity: "warning" as const },
  { id: "shock", events: [16], severity: "critical" as const },
];

let pipeline: Awaited<ReturnType<typeof startPipeline>> | undefined;
afterEach(async () => {
  await pipeline?.close();
  pipeline = undefined;
});

/** Invokes the handler until a run catches up; runs that fail (injected faults) are retried, as the schedule would. */
async function pollUntilCaughtUp(run: () => Promise<PollSummary[]>) {
  const failures: string[] = [];
  for (let attempt = 0; attempt < 80; attempt++) {
    try {
      const [summary] = await run();
      if (summary?.outcome === "caught-up" && summary.eventsRead === 0) return failures;
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  throw new Error(`never caught up; failures: ${failures.slice(-3).join(" | ")}`);
}

function expectedKeys(events: readonly SimEvent[], after: bigint) {
  return events
    .filter((event) => event.serialno > after)
    .flatMap((event) =>
      RULES.filter((rule) => rule.events.includes(event.appdevid)).map(
        (rule) => `${event.serialno}/${rule.id}`,
      ),
    )
    .sort();
}

describe("the worst the spec allows", () => {
  // Pages of 50 events: the six hours' backlog spans several, each read through the faults.
  const HARSH_SERVICES = {
    "capped, descending, duplicated answers": { maxResults: 13, order: "desc", duplicateRate: 0.3 },
    "answers that ignore columns and beforeSerialno": {
      ignores: ["columns", "beforeSerialno"],
      order: "desc",
      duplicateRate: 0.3,
    },
  } satisfies Record<string, EventQueryHarshOptions>;
  for (const [name, eventQuery] of Object.entries(HARSH_SERVICES)) {
    it(`${name} and injected faults lose no alert and send none twice, in pages of 50`, async () => {
      pipeline = await startPipeline({
        rules: RULES,
        simulator: { seed: 21, eventQuery },
        accounts: [{ id: "north", timeoutMs: 300 }],
        pollSizes: { pageEvents: 50, scanSerials: 120, chunkEvents: 20 },
      });
      const [first] = await pipeline.poll();
      const after = BigInt(first?.cursor ?? "0");
      pipeline.simulator.control.advance(6 * 3_600_000);
      expect(
        pipeline.simulator.control.events().filter((event) => event.serialno > after).length,
      ).toBeGreaterThan(150);
      const faults: FaultRule[] = [
        { endpoint: "eventquery", kind: "status500", probability: 0.15 },
        { endpoint: "eventquery", kind: "status503", probability: 0.05, retryAfterSeconds: 0 },
        { endpoint: "eventquery", kind: "htmlPage200", probability: 0.05 },
        { endpoint: "eventquery", kind: "malformedJson", probability: 0.05 },
        { endpoint: "eventquery", kind: "truncatedJson", probability: 0.05 },
        { endpoint: "eventquery", kind: "connectionReset", probability: 0.05 },
        { endpoint: "eventquery", kind: "latency", latencyMs: 600, probability: 0.05 },
        { endpoint: "alllist", kind: "status500", probability: 0.3 },
      ];
      for (const fault of faults) pipeline.simulator.control.faults.add(fault);
      const current = pipeline;
      const failures = await pollUntilCaughtUp(() => current.poll());
      expect(failures.length).toBeGreaterThan(0); // the faults did bite
      const keys = alertsOf(await drainInbox(pipeline.emulators)).map((alert) => alert.key);
      const expected = expectedKeys(pipeline.simulator.control.events(), after);
      expect(expected.length).toBeGreaterThan(50);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys.sort()).toEqual(expected);
    });
  }

  it("stores an event that fails validation, counts it, and moves on", async () => {
    pipeline = await startPipeline({ rules: RULES });
    await pipeline.poll();
    const { control } = pipeline.simulator;
    const bad = control.injectEvent({ appdevid: 13, deviceid: "" }); // a device id the spec cannot mean
    const good = control.injectEvent({ appdevid: 13, deviceid: control.devices()[0]?.deviceid });
    const [summary] = await pipeline.poll();
    expect(summary).toMatchObject({ outcome: "caught-up", rejected: 1, alertsPublished: 1 });
    expect(summary?.cursor).toBe(good.serialno.toString());
    const keys = alertsOf(await drainInbox(pipeline.emulators)).map((alert) => alert.key);
    expect(keys).toEqual([`${good.serialno}/speed`]);
    const { Item } = await pipeline.emulators.clients.documents.send(
      new GetCommand({
        TableName: pipeline.emulators.tableName,
        Key: { pk: "ACCOUNT#north", sk: `REJECTED#${bad.serialno.toString().padStart(40, "0")}` },
      }),
    );
    expect(JSON.parse(Item?.raw as string)).toMatchObject({
      serialno: bad.serialno.toString(),
      deviceid: "",
    });
    expect(Item?.issues).toContain("deviceid: Too small: expected string to have >=1 characters");
  });

  it("does not move the cursor when the service fails, and catches up on the next run", async () => {
    pipeline = await startPipeline({ rules: RULES, accounts: [{ id: "north", timeoutMs: 200 }] });
    const [first] = await pipeline.poll();
    const { control } = pipeline.simulator;
    const event = control.injectEvent({ appdevid: 16, deviceid: control.devices()[0]?.deviceid });
    control.faults.add({ endpoint: "eventquery", kind: "status503" });
    await expect(pipeline.poll()).rejects.toThrow(/poll failed for north.*HTTP 503/);
    control.faults.clear();
    const [second] = await pipeline.poll();
    expect(first?.cursor).not.toBe(second?.cursor);
    expect(alertsOf(await drainInbox(pipeline.emulators)).map((alert) => alert.key)).toEqual([
      `${event.serialno}/shock`,
    ]);
  });
});
