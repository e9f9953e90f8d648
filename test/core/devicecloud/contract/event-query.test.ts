import type { DeviceEvent, EventQueryFilter } from "@fleet-alerts/core/devicecloud";
import type { SimEvent, Simulator } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startContract } from "./harness.js";

// The simulated service's local time is UTC+2, so that local and UTC days differ.
const LOCAL_OFFSET_MINUTES = 120;
const EDGE = "EDGE-DEVICE";

let simulator: Simulator;
let client: Awaited<ReturnType<typeof startContract>>["client"];
let edge: Record<"beforeDay" | "dayStart" | "dayEnd" | "nextDay", SimEvent>;

beforeAll(async () => {
  const contract = await startContract({ historyHours: 12, timeZoneOffsetMinutes: LOCAL_OFFSET_MINUTES });
  simulator = contract.simulator;
  client = contract.client;
  contract.control.advance(2 * 3_600_000);
  // Four events around the local day 2026-01-05 (UTC+2): its last second before, its first and
  // last seconds, and the first second after. Each arrives (updatetime) when it happens.
  const at = (iso: string, details: Partial<SimEvent>) =>
    contract.control.injectEvent({
      appdevid: 13,
      deviceid: EDGE,
      eventtime: new Date(iso),
      updatetime: new Date(iso),
      ...details,
    });
  edge = {
    beforeDay: at("2026-01-04T21:59:59.000Z", { type: 1, loopdata: "abc", downloadtype: 0 }),
    dayStart: at("2026-01-04T22:00:00.000Z", { type: 2, loopdata: null, downloadtype: 1 }),
    dayEnd: at("2026-01-05T21:59:59.000Z", { type: 1, loopdata: "", downloadtype: 2 }),
    nextDay: at("2026-01-05T22:00:00.000Z", { type: 2, loopdata: "xyz", downloadtype: 1 }),
  };
});
afterAll(() => simulator.close());

const serials = (events: readonly Pick<DeviceEvent, "serialno">[]) => events.map((event) => event.serialno);
const names = (events: readonly SimEvent[]) =>
  events.map((event) => Object.entries(edge).find(([, known]) => known.serialno === event.serialno)?.[0]);

async function edgeQuery(filter: Omit<EventQueryFilter, "columns" | "deviceid">) {
  const { events, rejected } = await client().queryEvents({ ...filter, deviceid: EDGE });
  expect(rejected).toEqual([]);
  return names(events as unknown as SimEvent[]);
}

describe("event query against the simulator", () => {
  it("returns the whole log, valid and in ascending serialno, equal to the ground truth", async () => {
    const { events, rejected } = await client().queryEvents();
    expect(rejected).toEqual([]);
    expect(events).toEqual(simulator.control.events());
    const codes = new Set(events.map((event) => event.appdevid));
    for (const code of [0, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 16, 51, 52, 90, 91, 92, 98])
      expect(codes).toContain(code);
    expect(
      [...codes].some(
        (code) => ![0, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 16, 51, 52, 90, 91, 92, 98].includes(code),
      ),
    ).toBe(true);
  });

  it("selects one event by serialno", async () => {
    const target = simulator.control.events()[10] as SimEvent;
    const { events } = await client().queryEvents({ serialno: target.serialno });
    expect(events).toEqual([target]);
  });

  it("afterSerialno is exclusive and beforeSerialno inclusive, at the boundary", async () => {
    const all = simulator.control.events();
    const pivot = all[20] as SimEvent;
    const after = await client().queryEvents({ afterSerialno: pivot.serialno });
    expect(serials(after.events)[0]).toBe(all[21]?.serialno);
    expect(serials(after.events)).toEqual(serials(all.slice(21)));
    const afterOneLess = await client().queryEvents({ afterSerialno: pivot.serialno - 1n });
    expect(serials(afterOneLess.events)[0]).toBe(pivot.serialno);
    const before = await client().queryEvents({ beforeSerialno: pivot.serialno });
    expect(serials(before.events)).toEqual(serials(all.slice(0, 21)));
    const window = await client().queryEvents({
      afterSerialno: pivot.serialno,
      beforeSerialno: (all[25] as SimEvent).serialno,
    });
    expect(serials(window.events)).toEqual(serials(all.slice(21, 26)));
  });

  it("filters by appdevid, type and deviceid", async () => {
    const all = simulator.control.events();
    const overSpeed = await client().queryEvents({ appdevid: 13 });
    expect(overSpeed.events).toEqual(all.filter((event) => event.appdevid === 13));
    expect(overSpeed.events.length).toBeGreaterThan(0);
    const typed = await client().queryEvents({ type: 2, deviceid: EDGE });
    expect(names(typed.events as unknown as SimEvent[])).toEqual(["dayStart", "nextDay"]);
    const device = all[0]?.deviceid as string;
    const ofDevice = await client().queryEvents({ deviceid: device });
    expect(ofDevice.events).toEqual(all.filter((event) => event.deviceid === device));
  });

  it("date, afterDate and beforeDate take whole local days, inclusive", async () => {
    expect(await edgeQuery({ date: "2026-01-05" })).toEqual(["dayStart", "dayEnd"]);
    expect(await edgeQuery({ afterDate: "2026-01-05" })).toEqual(["dayStart", "dayEnd", "nextDay"]);
    expect(await edgeQuery({ beforeDate: "2026-01-05" })).toEqual(["beforeDay", "dayStart", "dayEnd"]);
    expect(await edgeQuery({ afterDate: "2026-01-05", beforeDate: "2026-01-05" })).toEqual([
      "dayStart",
      "dayEnd",
    ]);
  });

  it("afterTime and beforeTime are inclusive, in local time or UTC with Z", async () => {
    expect(await edgeQuery({ afterTime: "2026-01-05T00:00:00" })).toEqual(["dayStart", "dayEnd", "nextDay"]);
    expect(await edgeQuery({ afterTime: "2026-01-05T00:00:01" })).toEqual(["dayEnd", "nextDay"]);
    expect(await edgeQuery({ afterTime: "2026-01-04T22:00:00Z" })).toEqual(["dayStart", "dayEnd", "nextDay"]);
    expect(await edgeQuery({ beforeTime: "2026-01-05T00:00:00" })).toEqual(["beforeDay", "dayStart"]);
    expect(await edgeQuery({ beforeTime: "2026-01-04T21:59:59Z" })).toEqual(["beforeDay"]);
    // A Date is sent as UTC.
    expect(await edgeQuery({ afterTime: new Date("2026-01-05T21:59:59Z") })).toEqual(["dayEnd", "nextDay"]);
  });

  it("afterUpdatetime and beforeUpdatetime are exclusive (the simulator's documented choice)", async () => {
    expect(await edgeQuery({ afterUpdatetime: "2026-01-04T22:00:00Z" })).toEqual(["dayEnd", "nextDay"]);
    expect(await edgeQuery({ afterUpdatetime: "2026-01-04T21:59:59Z" })).toEqual([
      "dayStart",
      "dayEnd",
      "nextDay",
    ]);
    expect(await edgeQuery({ beforeUpdatetime: "2026-01-04T22:00:00Z" })).toEqual(["beforeDay"]);
    expect(await edgeQuery({ beforeUpdatetime: "2026-01-05T00:00:00" })).toEqual(["beforeDay"]);
  });

  it("hasLoopdata and downloadtype", async () => {
    expect(await edgeQuery({ hasLoopdata: true })).toEqual(["beforeDay", "nextDay"]);
    expect(await edgeQuery({ hasLoopdata: false })).toEqual(["dayStart", "dayEnd"]);
    expect(await edgeQuery({ downloadtype: 0 })).toEqual(["beforeDay"]);
    expect(await edgeQuery({ downloadtype: 1 })).toEqual(["dayStart", "nextDay"]);
    expect(await edgeQuery({ downloadtype: 2 })).toEqual(["dayEnd"]);
  });

  it("columns limits the fields, typed and checked", async () => {
    const { events, rejected } = await client().queryEvents({
      columns: ["serialno", "appdevid"],
      deviceid: EDGE,
    });
    expect(rejected).toEqual([]);
    expect(events).toEqual(
      [edge.beforeDay, edge.dayStart, edge.dayEnd, edge.nextDay].map(({ serialno, appdevid }) => ({
        serialno,
        appdevid,
      })),
    );
    const first = events[0];
    // @ts-expect-error: only the selected columns are in the type
    expect(first?.deviceid).toBeUndefined();
  });

  it("refuses a malformed filter before sending anything", async () => {
    simulator.control.resetRequests();
    await expect(client().queryEvents({ date: "2026-13-01" })).rejects.toMatchObject({
      kind: "invalid-argument",
    });
    // @ts-expect-error: not a column of the spec
    await expect(client().queryEvents({ columns: ["password"] })).rejects.toMatchObject({
      kind: "invalid-argument",
    });
    expect(simulator.control.requests).toHaveLength(0);
  });
});

describe("event query with serial numbers beyond 2^53", () => {
  it("keeps and compares them exactly", async () => {
    const { simulator: big, client: bigClient } = await startContract({
      historyHours: 2,
      serialStart: 9_007_199_254_740_000n,
    });
    try {
      const all = big.control.events();
      expect((all.at(-1) as SimEvent).serialno > 2n ** 53n).toBe(true);
      const { events } = await bigClient().queryEvents();
      expect(serials(events)).toEqual(serials(all));
      const pivot = all[5] as SimEvent;
      const after = await bigClient().queryEvents({ afterSerialno: pivot.serialno });
      expect(serials(after.events)).toEqual(serials(all.slice(6)));
      const exact = await bigClient().queryEvents({
        beforeSerialno: pivot.serialno,
        afterSerialno: pivot.serialno - 1n,
      });
      expect(serials(exact.events)).toEqual([pivot.serialno]);
    } finally {
      await big.close();
    }
  });
});
