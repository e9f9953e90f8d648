import { EVENT_COLUMNS, type SimEvent, type Simulator, type WireEvent } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyWithRaw, DEMO, type ErrorBody, post, queryEvents, startSmall } from "./helpers.js";

/**
 * Five hand-made events around the day and second boundaries the filters care about. The
 * simulator starts with no history and a frozen clock, so these are the whole log.
 */
const FIXTURE = {
  A: {
    dev: 0,
    appdevid: 13,
    type: 0,
    at: "2026-01-03T23:59:59.999Z",
    upd: "2026-01-04T00:00:05.000Z",
    loop: null,
    dl: 0,
  },
  B: {
    dev: 1,
    appdevid: 16,
    type: 2,
    at: "2026-01-04T00:00:00.000Z",
    upd: "2026-01-04T00:00:10.000Z",
    loop: '{"ch":"1"}',
    dl: 1,
  },
  C: {
    dev: 0,
    appdevid: 16,
    type: 1,
    at: "2026-01-04T12:00:00.750Z",
    upd: "2026-01-04T12:00:30.500Z",
    loop: "",
    dl: 2,
  },
  D: {
    dev: 2,
    appdevid: 77,
    type: 1,
    at: "2026-01-04T23:59:59.000Z",
    upd: "2026-01-05T00:00:00.000Z",
    loop: null,
    dl: 0,
  },
  E: {
    dev: 1,
    appdevid: 3,
    type: 0,
    at: "2026-01-05T00:00:00.000Z",
    upd: "2026-01-05T00:00:00.000Z",
    loop: "abc",
    dl: 1,
  },
} as const;
type Name = keyof typeof FIXTURE;

async function startWithFixture(timeZoneOffsetMinutes: number) {
  const simulator = await startSmall({ devices: 3, historyHours: 0, timeZoneOffsetMinutes });
  const ids = simulator.control.devices().map((device) => device.deviceid);
  const serials = {} as Record<Name, bigint>;
  for (const [name, spec] of Object.entries(FIXTURE) as [Name, (typeof FIXTURE)[Name]][]) {
    serials[name] = simulator.control.injectEvent({
      deviceid: ids[spec.dev],
      appdevid: spec.appdevid,
      type: spec.type,
      eventtime: new Date(spec.at),
      updatetime: new Date(spec.upd),
      loopdata: spec.loop,
      downloadtype: spec.dl,
    }).serialno;
  }
  const names = (events: WireEvent[]) =>
    events.map((event) =>
      (Object.keys(serials) as Name[]).find((name) => String(serials[name]) === event.serialno),
    );
  return { simulator, ids, serials, names };
}

describe("event query filters (service time zone UTC)", () => {
  let fixture: Awaited<ReturnType<typeof startWithFixture>>;
  const expectNames = async (filters: Record<string, unknown>, expected: Name[]) => {
    const { status, json } = await queryEvents(fixture.simulator, filters);
    expect(status).toBe(200);
    expect(fixture.names(json), JSON.stringify(filters)).toEqual(expected);
  };

  beforeAll(async () => {
    fixture = await startWithFixture(0);
  });
  afterAll(() => fixture.simulator.close());

  it("returns every event, ascending serialno, all columns, serialno as a string", async () => {
    const { json } = await queryEvents(fixture.simulator);
    expect(fixture.names(json)).toEqual(["A", "B", "C", "D", "E"]);
    for (const event of json) {
      expect(Object.keys(event)).toEqual([...EVENT_COLUMNS]);
      expect(event.serialno).toMatch(/^\d+$/);
    }
    expect(json[1]).toMatchObject({
      appdevid: 16,
      type: 2,
      eventtime: "2026-01-04T00:00:00.000Z",
      eventtimeutc: "2026-01-04T00:00:00.000Z",
      updatetime: "2026-01-04T00:00:10.000Z",
      loopdata: '{"ch":"1"}',
      downloadtype: 1,
      fenceid: null,
      memo: null,
    });
  });

  it("serialno: exact string match", async () => {
    await expectNames({ serialno: String(fixture.serials.C) }, ["C"]);
    await expectNames({ serialno: `0${fixture.serials.C}` }, []);
  });

  it("afterSerialno is exclusive, beforeSerialno inclusive", async () => {
    const { B, C } = fixture.serials;
    await expectNames({ afterSerialno: Number(B) }, ["C", "D", "E"]);
    await expectNames({ afterSerialno: Number(B) - 1 }, ["B", "C", "D", "E"]);
    await expectNames({ beforeSerialno: Number(C) }, ["A", "B", "C"]);
    await expectNames({ beforeSerialno: Number(C) - 1 }, ["A", "B"]);
    await expectNames({ afterSerialno: Number(B), beforeSerialno: Number(C) }, ["C"]);
  });

  it("appdevid, type and deviceid, combined with AND", async () => {
    await expectNames({ appdevid: 16 }, ["B", "C"]);
    await expectNames({ type: 1 }, ["C", "D"]);
    await expectNames({ appdevid: 16, type: 1 }, ["C"]);
    await expectNames({ deviceid: fixture.ids[0] }, ["A", "C"]);
    await expectNames({ appdevid: 16, deviceid: fixture.ids[1] }, ["B"]);
    await expectNames({ deviceid: "unknown" }, []);
  });

  it("date, afterDate and beforeDate are whole days, inclusive", async () => {
    await expectNames({ date: "2026-01-04" }, ["B", "C", "D"]);
    await expectNames({ afterDate: "2026-01-04" }, ["B", "C", "D", "E"]);
    await expectNames({ afterDate: "2026-01-05" }, ["E"]);
    await expectNames({ beforeDate: "2026-01-04" }, ["A", "B", "C", "D"]);
    await expectNames({ beforeDate: "2026-01-03" }, ["A"]);
    await expectNames({ afterDate: "2026-01-04", beforeDate: "2026-01-04" }, ["B", "C", "D"]);
  });

  it("afterTime and beforeTime are inclusive, at whole seconds", async () => {
    await expectNames({ afterTime: "2026-01-04T12:00:00Z" }, ["C", "D", "E"]);
    await expectNames({ afterTime: "2026-01-04T12:00:01Z" }, ["D", "E"]);
    await expectNames({ beforeTime: "2026-01-04T12:00:00Z" }, ["A", "B", "C"]);
    await expectNames({ beforeTime: "2026-01-04T11:59:59Z" }, ["A", "B"]);
    await expectNames({ afterTime: "2026-01-04T00:00:00", beforeTime: "2026-01-04T00:00:00" }, ["B"]);
  });

  it("afterUpdatetime and beforeUpdatetime are exclusive, at whole seconds", async () => {
    await expectNames({ afterUpdatetime: "2026-01-04T00:00:10Z" }, ["C", "D", "E"]);
    await expectNames({ afterUpdatetime: "2026-01-04T00:00:09Z" }, ["B", "C", "D", "E"]);
    await expectNames({ afterUpdatetime: "2026-01-04T12:00:30Z" }, ["D", "E"]);
    await expectNames({ beforeUpdatetime: "2026-01-04T00:00:10Z" }, ["A"]);
    await expectNames({ beforeUpdatetime: "2026-01-04T00:00:11Z" }, ["A", "B"]);
  });

  it("hasLoopdata: true = a non-empty string, false = null or empty", async () => {
    await expectNames({ hasLoopdata: true }, ["B", "E"]);
    await expectNames({ hasLoopdata: false }, ["A", "C", "D"]);
  });

  it("downloadtype: equality", async () => {
    await expectNames({ downloadtype: 0 }, ["A", "D"]);
    await expectNames({ downloadtype: 1 }, ["B", "E"]);
    await expectNames({ downloadtype: 2 }, ["C"]);
  });

  it("columns: projects each event to the named columns, in the canonical order", async () => {
    const { json } = await queryEvents(fixture.simulator, { columns: ["appdevid", "serialno", "loopdata"] });
    expect(json).toHaveLength(5);
    for (const event of json) expect(Object.keys(event)).toEqual(["serialno", "loopdata", "appdevid"]);
    const all = await queryEvents(fixture.simulator, { columns: [...EVENT_COLUMNS] });
    expect(all.text).toBe((await queryEvents(fixture.simulator)).text);
  });

  it.each([
    { columns: ["serialno", "speed"] },
    { columns: [] },
    { columns: "serialno" },
    { columns: [1] },
    { serialno: 1 },
    { serialno: "12a" },
    { afterSerialno: "1000000" },
    { afterSerialno: -1 },
    { beforeSerialno: 1.5 },
    { appdevid: "13" },
    { type: null },
    { date: "2026-1-4" },
    { date: "2026-02-30" },
    { afterDate: "2026-01-04T00:00:00Z" },
    { afterTime: "2026-01-04 12:00:00" },
    { afterTime: "2026-01-04T12:00:00.000Z" },
    { beforeTime: "2026-01-04T12:00:00+01:00" },
    { afterUpdatetime: "2026-01-04T24:00:00" },
    { hasLoopdata: "true" },
    { downloadtype: 3 },
    { downloadtype: "1" },
    { deviceid: 5 },
    { afterserialno: 1 },
  ])("answers 400 for %j", async (filters) => {
    const { status, json } = await queryEvents<ErrorBody>(fixture.simulator, filters);
    expect(status).toBe(400);
    expect(json.error).toMatch(/^(invalid|unknown)_parameter$/);
  });
});

describe("event query in the service's local time zone (UTC+2)", () => {
  let fixture: Awaited<ReturnType<typeof startWithFixture>>;

  beforeAll(async () => {
    fixture = await startWithFixture(120);
  });
  afterAll(() => fixture.simulator.close());

  it("reads dates and times without Z as local, with Z as UTC", async () => {
    const names = async (filters: Record<string, unknown>) =>
      fixture.names((await queryEvents(fixture.simulator, filters)).json);
    // A is 2026-01-04T01:59:59.999 local; D is 2026-01-05T01:59:59 local.
    expect(await names({ date: "2026-01-04" })).toEqual(["A", "B", "C"]);
    expect(await names({ date: "2026-01-05" })).toEqual(["D", "E"]);
    expect(await names({ afterTime: "2026-01-04T14:00:00" })).toEqual(["C", "D", "E"]);
    expect(await names({ afterTime: "2026-01-04T14:00:01" })).toEqual(["D", "E"]);
    expect(await names({ afterTime: "2026-01-04T12:00:00Z" })).toEqual(["C", "D", "E"]);
    expect(await names({ beforeUpdatetime: "2026-01-04T02:00:10" })).toEqual(["A"]);
  });
});

describe("event query with serial numbers beyond 2^53", () => {
  let simulator: Simulator;
  let events: SimEvent[];

  beforeAll(async () => {
    simulator = await startSmall({ devices: 1, historyHours: 0, serialStart: 9_007_199_254_740_990n });
    events = [991n, 993n, 994n, 995n].map((tail) =>
      simulator.control.injectEvent({ appdevid: 13, serialno: 9_007_199_254_740_000n + tail }),
    );
  });
  afterAll(() => simulator.close());

  const serialsOf = (json: WireEvent[]) => json.map((event) => event.serialno);

  it("reads afterSerialno and beforeSerialno as exact integers (JSON.parse would round 2^53+1)", async () => {
    const after = await post<WireEvent[]>(
      simulator,
      "/gkevent/eventquery",
      bodyWithRaw(DEMO, '"afterSerialno":9007199254740993'),
    );
    expect(serialsOf(after.json)).toEqual(["9007199254740994", "9007199254740995"]);
    const before = await post<WireEvent[]>(
      simulator,
      "/gkevent/eventquery",
      bodyWithRaw(DEMO, '"beforeSerialno":9007199254740993'),
    );
    expect(serialsOf(before.json)).toEqual(["9007199254740991", "9007199254740993"]);
    const exact = await queryEvents(simulator, { serialno: "9007199254740995" });
    expect(serialsOf(exact.json)).toEqual(["9007199254740995"]);
    expect(events.map((event) => event.serialno)).toEqual([
      9_007_199_254_740_991n,
      9_007_199_254_740_993n,
      9_007_199_254_740_994n,
      9_007_199_254_740_995n,
    ]);
  });

  it("refuses an injected serial that does not increase", () => {
    expect(() => simulator.control.injectEvent({ appdevid: 0, serialno: 9_007_199_254_740_995n })).toThrow(
      /must be greater/,
    );
  });
});

describe("harsh modes", () => {
  let simulator: Simulator;
  let all: SimEvent[];

  beforeAll(async () => {
    simulator = await startSmall({ seed: 5, eventQuery: { maxResults: 40 } });
    all = simulator.control.events();
  });
  afterAll(() => simulator.close());

  const serials = (json: WireEvent[]) => json.map((event) => BigInt(event.serialno as string));

  it("maxResults returns the oldest matching events first; afterSerialno pages on", async () => {
    expect(all.length).toBeGreaterThan(120);
    const first = await queryEvents(simulator);
    expect(serials(first.json)).toEqual(all.slice(0, 40).map((event) => event.serialno));
    const second = await queryEvents(simulator, { afterSerialno: Number(serials(first.json).at(-1)) });
    expect(serials(second.json)).toEqual(all.slice(40, 80).map((event) => event.serialno));
  });

  it("order desc reverses the (still oldest) page", async () => {
    simulator.control.setHarsh({ maxResults: 40, order: "desc" });
    const { json } = await queryEvents(simulator);
    expect(serials(json)).toEqual(
      all
        .slice(0, 40)
        .map((event) => event.serialno)
        .reverse(),
    );
  });

  it("duplicateRate repeats a seeded fraction of the page, each copy after its original", async () => {
    simulator.control.setHarsh({ duplicateRate: 0.3 });
    const { json } = await queryEvents(simulator);
    const got = serials(json);
    expect(new Set(got)).toEqual(new Set(all.map((event) => event.serialno)));
    const repeats = got.length - all.length;
    expect(repeats / all.length).toBeGreaterThan(0.2);
    expect(repeats / all.length).toBeLessThan(0.4);
    expect(got).toEqual([...got].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it("ignores: columns and beforeSerialno checked, then not applied", async () => {
    simulator.control.setHarsh({ ignores: ["columns", "beforeSerialno"] });
    const before = all[9]?.serialno as bigint;
    const { json } = await queryEvents(simulator, { beforeSerialno: Number(before), columns: ["serialno"] });
    expect(serials(json)).toEqual(all.map((event) => event.serialno));
    expect(Object.keys(json[0] ?? {})).toContain("deviceid");
    // Still checked: a filter the spec does not allow is refused as before.
    expect((await queryEvents(simulator, { columns: ["nonsense"] })).status).toBe(400);
    expect(() => simulator.control.setHarsh({ ignores: ["deviceid" as "columns"] })).toThrow(
      /eventQuery.ignores/,
    );
  });

  it("setHarsh({}) restores the defaults: everything, ascending, once", async () => {
    simulator.control.setHarsh({});
    const { json } = await queryEvents(simulator);
    expect(serials(json)).toEqual(all.map((event) => event.serialno));
  });

  it("answers filtered and whole queries over a log of thousands of events", async () => {
    const big = await startSmall({ devices: 20, historyHours: 48 });
    try {
      const events = big.control.events();
      expect(events.length).toBeGreaterThan(8_000);
      const { json } = await queryEvents(big, { appdevid: 13, afterTime: "2026-01-03T12:00:00Z" });
      const { json: everything } = await queryEvents(big);
      const expected = events.filter(
        (event) => event.appdevid === 13 && Date.parse(event.eventtime) >= Date.parse("2026-01-03T12:00:00Z"),
      );
      expect(json.length).toBeGreaterThan(100);
      expect(serials(json)).toEqual(expected.map((event) => event.serialno));
      expect(everything).toHaveLength(events.length);
    } finally {
      await big.close();
    }
  });
});
