import type { DeviceEvent } from "@fleet-alerts/core/devicecloud";
import { type AccountSettings, type PollerDependencies, pollAccount } from "@fleet-alerts/core/poller";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it, vi } from "vitest";
import { fakePollerDependencies } from "../../support/fakes/index.js";

const NOW = Date.parse("2026-01-05T12:00:00Z");
const START = 1_000n;
const CHUNK = 50;
// Two rules of the same event: each event may make two records.
const SETTINGS: AccountSettings = {
  account: "east",
  rules: [
    { id: "speed", events: [13], severity: "warning" },
    { id: "speed-critical", events: [13], severity: "critical" },
  ].map((rule) => ruleSchema.parse(rule)),
  fleetTimeZone: "UTC",
  gps: { speedUnit: "km/h", budgetMs: 0 },
};

describe("the records a chunk reads back", () => {
  it(`are its own window's alone: at most ${CHUNK} events × the rules, however long the backlog`, async () => {
    const { deps } = fakePollerDependencies(NOW);
    (deps as PollerDependencies).chunkEvents = CHUNK;
    const backlog: DeviceEvent[] = Array.from({ length: 20 * CHUNK }, (_, index) => ({
      serialno: START + BigInt(index + 1),
      deviceid: `D${index % 7}`,
      appdevid: 13,
      eventtime: new Date(NOW - 600_000 + index).toISOString(),
    }));
    deps.client.events.push(...backlog);
    await deps.cursors.advance(SETTINGS.account, undefined, START, NOW, 0);
    const inWindow = vi.spyOn(deps.alerts, "inWindow");

    const summary = await pollAccount(SETTINGS, deps, { deadlineMs: Number.POSITIVE_INFINITY });

    expect(summary).toMatchObject({ outcome: "caught-up", eventsRead: backlog.length });
    expect(deps.alerts.all()).toHaveLength(backlog.length * SETTINGS.rules.length);
    expect(inWindow.mock.calls.length).toBeGreaterThanOrEqual(backlog.length / CHUNK);
    for (const [, after, through] of inWindow.mock.calls) expect(through - after).toBeLessThanOrEqual(CHUNK);
    for (const result of inWindow.mock.results)
      expect((await result.value).length).toBeLessThanOrEqual(CHUNK * SETTINGS.rules.length);
  });
});
