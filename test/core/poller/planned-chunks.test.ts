import type { Chunk } from "@fleet-alerts/core/poller";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { PlannedChunks } from "../../../packages/core/src/poller/planned-chunks.js";
import { FakeDeviceCloud } from "../../support/fakes/device-cloud.js";

const NOW = Date.parse("2026-01-05T12:00:00Z");
const SETTINGS = {
  account: "east",
  rules: [ruleSchema.parse({ id: "speed", events: [13], severity: "warning", cooldownSeconds: 600 })],
  fleetTimeZone: "Europe/Berlin",
  gps: { speedUnit: "km/h" as const, budgetMs: 0 },
};

const chunk = (serial: number): Chunk => ({
  events: [
    {
      serialno: BigInt(serial),
      deviceid: "D1",
      appdevid: 13,
      eventtime: new Date(NOW - 3_600_000 + serial * 60_000).toISOString(),
    },
  ],
  through: BigInt(serial),
});

describe("the chunks of bounded pages as one stream", () => {
  it("reads the next page while the last chunk of a page is handled, and decides on the page before's states", async () => {
    const reads: string[] = [];
    async function* pages() {
      reads.push("page 1");
      yield [chunk(1), chunk(2)];
      reads.push("page 2");
      yield [chunk(30)];
    }
    const stream = new PlannedChunks(pages(), new Map(), SETTINGS, {
      client: new FakeDeviceCloud(),
      now: () => NOW,
    });
    const first = await stream.next();
    expect(reads).toEqual(["page 1"]);
    const second = await stream.next();
    expect(reads).toEqual(["page 1", "page 2"]); // read ahead, before the last chunk is handled
    const third = await stream.next();
    expect(await stream.next()).toBeUndefined();
    await stream.close();
    // Speeding at minutes 1, 2 and 30 with a 10-minute cooldown: the second is suppressed, the
    // third (on the next page) alerts because it decides on the first page's states.
    const alerted = [first, second, third].map((planned) => planned?.plan.decision.alerts.length);
    expect(alerted).toEqual([1, 0, 1]);
  });

  it("fails the next call, not the process, when the page read ahead fails", async () => {
    async function* pages() {
      yield [chunk(1)];
      throw new Error("the device cloud is gone");
    }
    const stream = new PlannedChunks(pages(), new Map(), SETTINGS, {
      client: new FakeDeviceCloud(),
      now: () => NOW,
    });
    expect(await stream.next()).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 10)); // the read ahead has failed by now
    await expect(stream.next()).rejects.toThrow("the device cloud is gone");
    await stream.close();
  });
});
