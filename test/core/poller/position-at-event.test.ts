import type { AlertBody } from "@fleet-alerts/core/alerts";
import { distanceMeters } from "@fleet-alerts/core/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertsOf, drainInbox, type Pipeline, startPipeline } from "./pipeline.js";

// Alerts checked against the simulator's ground truth: where each vehicle really was, and how fast
// it went, at each event. The poll runs after a backlog, while the vehicles drive on.

const RULES = [
  { id: "speed", events: ["OverSpeed"], severity: "warning" as const },
  { id: "idle", events: ["Idle"], severity: "info" as const },
  { id: "shock", events: ["GSensor"], severity: "critical" as const },
  { id: "fence", events: [120], severity: "info" as const },
];
const BACKLOG_MS = 40 * 60_000;
const TOLERANCE_METERS = 50;

interface Placed {
  body: AlertBody;
  truthAtEvent: { lat: number; lng: number; speedKmh: number };
  truthNow: { lat: number; lng: number };
}

async function backlogAlerts(eventCoordinates: "numbers" | "null") {
  const pipeline: Pipeline = await startPipeline({
    rules: RULES,
    simulator: { seed: 11, devices: 24, historyHours: 1, eventCoordinates },
  });
  try {
    await pipeline.poll();
    pipeline.simulator.control.advance(BACKLOG_MS);
    const [summary] = await pipeline.poll();
    const { control } = pipeline.simulator;
    const placed = alertsOf(await drainInbox(pipeline.emulators)).map(({ message }): Placed => {
      const body = JSON.parse(message.bodies?.default ?? "{}") as AlertBody;
      const truth = (at: Date) => {
        const state = control.groundTruth(body.deviceid, at);
        if (!state) throw new Error(`no ground truth for ${body.deviceid}`);
        return state;
      };
      return { body, truthAtEvent: truth(new Date(body.eventtime)), truthNow: truth(control.now()) };
    });
    return { placed, summary };
  } finally {
    await pipeline.close();
  }
}

const offBy = ({ body, truthAtEvent }: Placed) =>
  body.position ? distanceMeters(body.position, truthAtEvent) : Number.POSITIVE_INFINITY;
const bySource = (placed: readonly Placed[], source: string) =>
  placed.filter(({ body }) => (body.position?.source ?? "unknown") === source);

describe("alert positions against the simulator's ground truth", () => {
  let withCoordinates: Awaited<ReturnType<typeof backlogAlerts>>;
  let withoutCoordinates: Awaited<ReturnType<typeof backlogAlerts>>;

  beforeAll(async () => {
    [withCoordinates, withoutCoordinates] = await Promise.all([
      backlogAlerts("numbers"),
      backlogAlerts("null"),
    ]);
  });
  afterAll(() => undefined);

  it("places events that carry coordinates within 50 m of where the vehicle was", () => {
    const fromEvent = bySource(withCoordinates.placed, "event");
    expect(fromEvent.length).toBeGreaterThan(20);
    for (const alert of fromEvent) expect(offBy(alert)).toBeLessThan(TOLERANCE_METERS);
  });

  it("places events with null coordinates from the GPS track, within 50 m", () => {
    const { placed, summary } = withoutCoordinates;
    expect(bySource(placed, "event")).toEqual([]);
    const fromTrack = bySource(placed, "track");
    expect(fromTrack.length).toBeGreaterThan(20);
    for (const alert of fromTrack) expect(offBy(alert)).toBeLessThan(TOLERANCE_METERS);
    expect(summary?.positionsFromTrack).toBe(fromTrack.length);
  });

  it("gives an OverSpeed the speed at the event within 2 km/h, with the device's limit", () => {
    for (const { placed } of [withCoordinates, withoutCoordinates]) {
      const overSpeeds = placed.filter(({ body }) => body.eventCode === 13 && body.speedSource === "track");
      expect(overSpeeds.length).toBeGreaterThan(3);
      for (const { body, truthAtEvent } of overSpeeds) {
        expect(Math.abs((body.speedKmh as number) - truthAtEvent.speedKmh)).toBeLessThanOrEqual(2);
        expect(body.speedLimitKmh).toBeLessThan(body.speedKmh as number);
      }
    }
  });

  it("after the backlog, shows where vehicles were at their events, not where they are now", () => {
    const placed = [...withCoordinates.placed, ...withoutCoordinates.placed].filter(
      ({ body }) => body.position?.source === "event" || body.position?.source === "track",
    );
    // The test means something only if many vehicles have since moved well away.
    const movedOn = placed.filter(
      ({ truthAtEvent, truthNow }) => distanceMeters(truthAtEvent, truthNow) > 500,
    );
    expect(movedOn.length).toBeGreaterThan(10);
    for (const alert of movedOn) expect(offBy(alert)).toBeLessThan(TOLERANCE_METERS);
  });

  it("labels the rest honestly: a last known position says so, and when it was taken", () => {
    for (const { placed } of [withCoordinates, withoutCoordinates]) {
      const lastKnown = bySource(placed, "last-known");
      for (const { body } of lastKnown) expect(body.position?.fixtime).not.toBe(body.eventtime);
      // A minority: events sent while the device was offline, with no track of that time.
      expect(lastKnown.length).toBeLessThan(placed.length / 4);
    }
  });
});
