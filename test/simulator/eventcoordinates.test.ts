import type { EventCoordinates, SimEvent, Simulator, WireEvent } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, post, queryEvents, startSmall } from "./helpers.js";

const HOUR_MS = 3_600_000;
const OPTIONS = { devices: 8, historyHours: 6, seed: 4 };
const DECIMAL = /^-?\d+\.\d{6}$/;

const withoutCoordinates = (events: SimEvent[]) => events.map(({ vehiclex, vehicley, ...rest }) => rest);
const located = (events: SimEvent[]) => events.filter((event) => event.vehiclex !== null);

describe("eventCoordinates: how events write vehiclex/vehicley", () => {
  const simulators = new Map<EventCoordinates, Simulator>();
  const run = (mode: EventCoordinates) => simulators.get(mode) as Simulator;

  beforeAll(async () => {
    for (const mode of ["numbers", "strings", "null"] as const) {
      simulators.set(mode, await startSmall({ ...OPTIONS, eventCoordinates: mode }));
    }
  });
  afterAll(() => Promise.all([...simulators.values()].map((simulator) => simulator.close())));

  it('"null" gives null coordinates on every event and leaves /api/gps and the rest as they were', async () => {
    const numbers = run("numbers").control;
    const nulls = run("null").control;
    expect(located(numbers.events()).length).toBeGreaterThan(100);
    expect(located(nulls.events())).toEqual([]);
    const { json } = await queryEvents(run("null"), { columns: ["vehiclex", "vehicley"] });
    expect(json.length).toBe(nulls.events().length);
    expect(json.every((event) => event.vehiclex === null && event.vehicley === null)).toBe(true);
    expect(withoutCoordinates(nulls.events())).toEqual(withoutCoordinates(numbers.events()));
    const end = Math.floor(numbers.now().getTime() / 1000);
    for (const { deviceid } of numbers.devices()) {
      const body = { ...DEMO, deviceid, start: end - 6 * 3600, end };
      const [fromNulls, fromNumbers] = await Promise.all([
        post(run("null"), "/api/gps", body),
        post(run("numbers"), "/api/gps", body),
      ]);
      expect(fromNulls.status).toBe(200);
      expect(fromNulls.text).toBe(fromNumbers.text);
    }
  });

  it('"strings" writes the same coordinates as decimal strings with six decimals', async () => {
    const numbers = located(run("numbers").control.events());
    const strings = located(run("strings").control.events());
    expect(strings.map((event) => event.serialno)).toEqual(numbers.map((event) => event.serialno));
    strings.forEach((event, i) => {
      expect(event.vehiclex).toMatch(DECIMAL);
      expect(event.vehicley).toMatch(DECIMAL);
      expect(Number(event.vehiclex)).toBe(numbers[i]?.vehiclex);
      expect(Number(event.vehicley)).toBe(numbers[i]?.vehicley);
    });
    const { json } = await queryEvents<WireEvent[]>(run("strings"), { columns: ["vehiclex", "vehicley"] });
    const wire = json.filter((event) => event.vehiclex !== null);
    expect(wire.length).toBe(strings.length);
    expect(
      wire.every((event) => typeof event.vehiclex === "string" && typeof event.vehicley === "string"),
    ).toBe(true);
  });

  it("can change at run time, for the events logged from then on", () => {
    const { control } = run("numbers");
    const before = control.events();
    control.setEventCoordinates("null");
    const nullHours = control.advance(2 * HOUR_MS);
    control.setEventCoordinates("strings");
    const stringHours = control.advance(2 * HOUR_MS);
    control.setEventCoordinates("numbers");
    expect(control.events().slice(0, before.length)).toEqual(before);
    expect(located(nullHours)).toEqual([]);
    expect(located(stringHours).length).toBeGreaterThan(10);
    for (const event of located(stringHours)) expect(event.vehiclex).toMatch(DECIMAL);
    expect(() => control.setEventCoordinates("none" as EventCoordinates)).toThrow(
      'eventCoordinates: expected one of "numbers", "strings", "null", got "none"',
    );
  });

  it("rejects anything else with a message naming the choices", async () => {
    await expect(startSmall({ eventCoordinates: "nulls" as EventCoordinates })).rejects.toThrow(
      'eventCoordinates: expected one of "numbers", "strings", "null", got "nulls"',
    );
    await expect(startSmall({ eventCoordinates: null as unknown as EventCoordinates })).rejects.toThrow(
      /got null \(not a string\)/,
    );
  });
});
