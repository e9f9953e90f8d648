import {
  groupsFileSchema,
  type HeldItem,
  type RoutableAlert,
  type RoutedItem,
  Router,
  UNROUTED_RECIPIENT,
} from "@fleet-alerts/core/routing";
import { describe, expect, it } from "vitest";

// The Router's decisions with its stores in memory: quiet hours across Berlin's clock changes,
// held below the threshold, critical through, nobody selected.

const groups = groupsFileSchema.parse({
  groups: [
    {
      name: "night",
      email: ["night@example.com"],
      quietHours: { from: "22:00", to: "06:00", holdBelow: "critical" },
    },
    {
      name: "trucks",
      email: ["trucks@example.com"],
      select: { vehiclePattern: "TRK-\\d+", minSeverity: "warning" },
    },
  ],
});

function router() {
  const items: (HeldItem | RoutedItem)[] = [];
  const routing = new Router(groups, "Europe/Berlin", {
    items: { put: async (written) => void items.push(...written) },
    smsCaps: { count: async (_alert, recipients) => ({ texted: [...recipients], capped: [] }) },
  });
  return { routing, items };
}

const alert = (overrides: Partial<RoutableAlert> = {}): RoutableAlert => ({
  alertId: "east:1:speeding",
  account: "east",
  serialno: "1",
  ruleId: "speeding",
  severity: "warning",
  deviceid: "0012345678",
  vehicleid: "VAN-1",
  eventtime: "2026-03-29T01:30:00.000Z",
  ...overrides,
});

describe("the router", () => {
  it.each([
    // Spring forward: 22:00 CET (21:00 UTC) to 06:00 CEST (04:00 UTC), seven hours.
    ["2026-03-29T01:30:00.000Z", "2026-03-28T21:00:00.000Z", "2026-03-29T04:00:00.000Z"],
    // Fall back: 22:00 CEST (20:00 UTC) to 06:00 CET (05:00 UTC), nine hours.
    ["2026-10-25T04:30:00.000Z", "2026-10-24T20:00:00.000Z", "2026-10-25T05:00:00.000Z"],
  ])("holds an alert at %s in the wall-clock window %s to %s", async (at, windowStart, windowEnd) => {
    const { routing, items } = router();
    const route = await routing.route(alert(), Date.parse(at));
    expect(route).toMatchObject({ groups: [], held: ["night"], email: [] });
    expect(items).toEqual([
      expect.objectContaining({ sk: `HELD#${windowEnd}#east:1:speeding`, windowStart, windowEnd }),
      expect.objectContaining({ sk: `ROUTED#${at}#east:1:speeding`, held: true }),
    ]);
  });

  it("lets the alert through outside the window (06:00 CEST is 04:00 UTC), and a critical one inside", async () => {
    const { routing } = router();
    expect(await routing.route(alert(), Date.parse("2026-03-29T04:00:00.000Z"))).toMatchObject({
      groups: ["night"],
      held: [],
    });
    expect(
      await routing.route(alert({ severity: "critical" }), Date.parse("2026-03-29T01:30:00.000Z")),
    ).toMatchObject({ groups: ["night"], held: [] });
  });

  it("sends what no group selects to the unrouted recipient; a whole-id pattern match selects", async () => {
    const { routing } = router();
    const only = new Router(groupsFileSchema.parse({ groups: [groups.groups[1]] }), "UTC", {
      items: { put: async () => undefined },
      smsCaps: { count: async () => ({ texted: [], capped: [] }) },
    });
    expect(await only.route(alert({ vehicleid: "TRK-1x" }), 0)).toEqual({
      groups: [],
      held: [],
      email: [UNROUTED_RECIPIENT],
      sms: [],
      smsCapped: [],
      targets: [],
    });
    expect(
      (await routing.route(alert({ vehicleid: "TRK-1" }), Date.parse("2026-03-29T12:00:00Z"))).groups,
    ).toEqual(["night", "trucks"]);
  });
});
