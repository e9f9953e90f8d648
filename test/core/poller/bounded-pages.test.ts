import type { DeviceEvent } from "@fleet-alerts/core/devicecloud";
import {
  type AccountSettings,
  eventPages,
  POLL_STEPS,
  type PollerDependencies,
  type PollStep,
  pollAccount,
} from "@fleet-alerts/core/poller";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import type { FakeEventQueryHabits } from "../../support/fakes/device-cloud.js";
import { fakePollerDependencies } from "../../support/fakes/index.js";

const NOW = Date.parse("2026-01-05T12:00:00Z");
const ACCOUNT = "east";
const START = 5_000n;
// Pages of 50 (chunks of 20, 20 and 10) and scans of 150 serials: a backlog of 600 spans twelve
// pages and four scans.
const SIZES = { pageEvents: 50, scanSerials: 150, chunkEvents: 20 } satisfies Partial<PollerDependencies>;
const BACKLOG = 600;
const SETTINGS: AccountSettings = {
  account: ACCOUNT,
  rules: [
    {
      id: "speed",
      events: [13],
      severity: "warning",
      evidence: { channels: [1], secondsBefore: 5, secondsAfter: 5 },
    },
    { id: "shock", events: [16], severity: "critical" },
    { id: "offline", events: [3], severity: "info", offlineForMinutes: 5 },
  ].map((rule) => ruleSchema.parse(rule)),
  fleetTimeZone: "Europe/Berlin",
  gps: { speedUnit: "km/h", budgetMs: 1_000 },
};

/** What the spec allows a service to do with the event query, one at a time and all together. */
const SERVICES: Record<string, { habits: FakeEventQueryHabits; cap?: number }> = {
  "answers as asked": { habits: {} },
  "ignores columns and beforeSerialno": { habits: { ignores: ["columns", "beforeSerialno"] } },
  "answers newest first, capped at 37": { habits: { order: "desc" }, cap: 37 },
  "repeats every event": { habits: { repeats: true } },
  "does all of that at once": {
    habits: { ignores: ["columns", "beforeSerialno"], order: "desc", repeats: true },
    cap: 37,
  },
};

/** A backlog of `count` events after START with gaps in the serials, on four devices: half alerts, a quarter Offline. */
function backlog(count: number): DeviceEvent[] {
  return Array.from({ length: count }, (_, index) => ({
    serialno: START + BigInt(index * 3 + 1),
    deviceid: `D${index % 4}`,
    appdevid: [13, 0, 16, 3][index % 4] as number,
    eventtime: new Date(NOW - 3_600_000 + index * 5_000).toISOString(),
  }));
}

function world(service: { habits: FakeEventQueryHabits; cap?: number }) {
  const fakes = fakePollerDependencies(NOW);
  Object.assign(fakes.deps, SIZES);
  fakes.deps.client.events.push(...backlog(BACKLOG));
  fakes.deps.client.habits = structuredClone(service.habits);
  if (service.cap !== undefined) fakes.deps.client.pageSize = service.cap;
  void fakes.deps.cursors.advance(ACCOUNT, undefined, START, NOW, 0);
  return fakes;
}

async function readAll(deps: PollerDependencies, from = START) {
  const summary = { eventsRead: 0, rejected: 0 };
  const pages: bigint[][] = [];
  for await (const chunks of eventPages(ACCOUNT, from, deps, summary))
    pages.push(chunks.flatMap((chunk) => chunk.events.map((event) => event.serialno)));
  return { pages, summary };
}

describe("events read in bounded pages", () => {
  for (const [name, service] of Object.entries(SERVICES)) {
    it(`reads every event once, in order, never more than a page at a time: a service that ${name}`, async () => {
      const { deps } = world(service);
      const { pages, summary } = await readAll(deps);
      const expected = backlog(BACKLOG).map((event) => event.serialno);
      expect(pages.flat()).toEqual(expected);
      expect(summary.eventsRead).toBe(BACKLOG);
      for (const page of pages) expect(page.length).toBeLessThanOrEqual(SIZES.pageEvents);
      expect(pages.length).toBeGreaterThanOrEqual(BACKLOG / SIZES.pageEvents);
    });
  }

  it("scans the serials after the cursor, then asks for one page's range at a time", async () => {
    const { deps } = world(SERVICES["answers as asked"] as (typeof SERVICES)[string]);
    await readAll(deps);
    // Each scan answers every serial left (the poller keeps 150 of them), each page 50 events; the
    // last scan finds nothing left.
    expect(deps.client.answerRows).toEqual([
      ...[600, 450, 300, 150].flatMap((left) => [left, 50, 50, 50]),
      0,
    ]);
  });

  it("cuts a page short where the answer lacks an event the scan saw, and asks for it again", async () => {
    const { deps } = world(SERVICES["answers as asked"] as (typeof SERVICES)[string]);
    const late = START + 31n; // the 11th event: its page ends before it, the next one brings it
    deps.client.habits.withheld = new Map([[late, 1]]);
    const { pages } = await readAll(deps);
    expect(pages.flat()).toEqual(backlog(BACKLOG).map((event) => event.serialno));
    expect(pages[0]?.at(-1)).toBe(late - 3n);
  });

  it("passes over, with a warning, an event missing from two answers in a row", async () => {
    const { deps } = world(SERVICES["answers as asked"] as (typeof SERVICES)[string]);
    const warnings: unknown[] = [];
    (deps as PollerDependencies).logger = {
      ...deps.logger,
      warn: (message, attributes) => void warnings.push({ message, attributes }),
    };
    const gone = START + 31n;
    deps.client.habits.withheld = new Map([[gone, 99]]);
    const { pages } = await readAll(deps);
    expect(pages.flat()).toEqual(
      backlog(BACKLOG)
        .map((event) => event.serialno)
        .filter((serial) => serial !== gone),
    );
    expect(warnings).toEqual([
      {
        message: "an event the serial scan saw was missing from two answers; passed over",
        attributes: { account: ACCOUNT, serialno: gone.toString() },
      },
    ]);
  });
});

describe("a crash at every page boundary, then run again", () => {
  for (const [name, service] of Object.entries(SERVICES)) {
    it(`publishes each alert exactly once: a service that ${name}`, async () => {
      const control = world(service);
      expect(
        await pollAccount(SETTINGS, control.deps, { deadlineMs: Number.POSITIVE_INFINITY }),
      ).toMatchObject({
        outcome: "caught-up",
        eventsRead: BACKLOG,
      });
      const expected = control.deps.publisher.acceptedIds().sort();
      expect(expected).toHaveLength(BACKLOG / 2);
      // Stale summaries are not set up over these fakes: their step is the emulator tests' (stale-summary.test.ts).
      for (const step of POLL_STEPS.filter((step) => step !== "stale-noted")) {
        const crashed = world(service);
        // Run after run, each crashing at the step of its first, second or third chunk in turn: a
        // page is three chunks, so every chunk of every page, its last one included, sees a crash.
        let crashes = 0;
        for (;;) {
          let reached = 0;
          const occurrence = (crashes % 3) + 1;
          const checkpoint = (at: PollStep) => {
            if (at === step && ++reached === occurrence) throw new Error(`crash at ${at}`);
          };
          const run = await pollAccount(
            SETTINGS,
            { ...crashed.deps, checkpoint },
            { deadlineMs: Number.POSITIVE_INFINITY },
          ).catch((error: Error) => error);
          if (!(run instanceof Error)) break;
          expect(run.message).toBe(`crash at ${step}`);
          crashes++;
        }
        expect(crashes, step).toBeGreaterThanOrEqual(BACKLOG / SIZES.pageEvents);
        // Each check once (an SQS consumer takes a repeat all the same), each alert's evidence asked for.
        expect(new Set(crashed.deps.confirmQueue.sent.map((message) => message.body)).size).toBe(BACKLOG / 4);
        const published = crashed.deps.publisher.acceptedIds();
        expect(new Set(published).size, step).toBe(published.length);
        expect(published.sort(), step).toEqual(expected);
      }
    });
  }
});
