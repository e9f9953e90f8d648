import { fc, test } from "@fast-check/vitest";
import { type AlertRecord, newAlertRecord } from "@fleet-alerts/core/alerts";
import type { FleetDevice } from "@fleet-alerts/core/devicecloud";
import {
  emptyTally,
  FIRST_STALE_HEAD,
  STALE_SUMMARY_LINKS,
  type StaleTally,
  staleSummaryText,
  tallied,
} from "@fleet-alerts/core/notices";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { deviceIdArbitrary, LINE_BREAK, linesOf, untrustedString } from "../../support/untrusted-strings.js";

const ZONE = "Europe/Berlin";
const RULES = {
  shock: ruleSchema.parse({ id: "shock", events: [16], severity: "critical", staleAfterSeconds: 3600 }),
  speed: ruleSchema.parse({ id: "speed", events: [13], severity: "warning", staleAfterSeconds: 3600 }),
};

/** A stale alert record of event `serialno`, as the poller writes it, of a device named so. */
function staleRecord(
  serialno: number,
  ruleId: keyof typeof RULES,
  names: { deviceid: string; vehicleid?: string | undefined } = { deviceid: "D1" },
): AlertRecord {
  const rule = RULES[ruleId];
  const event = {
    serialno: BigInt(serialno),
    deviceid: names.deviceid,
    appdevid: rule.eventCodes[0] as number,
    eventtime: new Date(Date.parse("2026-03-29T01:00:00Z") + serialno * 1000).toISOString(),
  };
  const record = newAlertRecord({
    account: "east",
    event,
    rule,
    status: "stale",
    incident: {},
    suppressedBefore: 0,
    device:
      names.vehicleid === undefined
        ? undefined
        : ({ deviceid: names.deviceid, vehicleid: names.vehicleid, channel: 1 } as FleetDevice),
    fleetTimeZone: ZONE,
  });
  return {
    ...record,
    alertId: `east:${serialno}:${ruleId}`,
    createdAt: new Date(0).toISOString(),
    escalatedLevels: 0,
    escalationsSent: 0,
  };
}

const start = (group = "safety") => emptyTally(FIRST_STALE_HEAD, group);

describe("a group's stale tally", () => {
  it("counts per rule, and lists the most severe first, each severity in event order, 20 at most", () => {
    const first = [1, 2, 3].map((n) => staleRecord(n, "speed"));
    const once = tallied(start(), first, 10n) as StaleTally;
    expect(once).toMatchObject({ notedThrough: 10n, total: 3, byRule: { speed: 3 } });
    const shocks = Array.from({ length: 25 }, (_, index) => staleRecord(11 + index, "shock"));
    const twice = tallied(once, [...shocks, staleRecord(40, "speed")], 40n) as StaleTally;
    expect(twice).toMatchObject({ notedThrough: 40n, total: 29, byRule: { speed: 4, shock: 25 } });
    expect(twice.listed).toHaveLength(STALE_SUMMARY_LINKS);
    expect(twice.listed.map((alert) => alert.alertId)).toEqual(
      shocks.slice(0, 20).map((record) => record.alertId),
    );
  });

  it("adds nothing a replayed chunk brings again, and only what lies past the chunk end it holds", () => {
    const chunk = [1, 2, 3].map((n) => staleRecord(n, "shock"));
    const once = tallied(start(), chunk, 5n) as StaleTally;
    expect(tallied(once, chunk, 5n)).toBeUndefined();
    // A replay whose chunk ends elsewhere: the records up to 5 are counted, the one past it is not yet.
    const again = tallied(once, [...chunk, staleRecord(7, "shock")], 9n);
    expect(again).toMatchObject({ notedThrough: 9n, total: 4, byRule: { shock: 4 } });
  });
});

/** The summary email of these stale alerts, all of them listed, every other one with a link. */
function summaryEmail(devices: readonly { deviceid: string; vehicleid?: string | undefined }[]): string {
  const records = devices.map((names, index) => staleRecord(index + 1, "shock", names));
  const tally = tallied(start(), records, BigInt(records.length)) as StaleTally;
  return staleSummaryText({
    account: "east",
    group: "safety",
    zone: ZONE,
    tally,
    records: tally.listed.map(({ alertId }) => records.find((record) => record.alertId === alertId)),
    links: tally.listed.map((_, index) => (index % 2 === 0 ? "https://alerts.example.com/i/tok" : undefined)),
  }).email;
}

const names = fc.record({
  deviceid: deviceIdArbitrary(),
  vehicleid: fc.option(untrustedString({ maxLength: 500 }), { nil: undefined }),
});

describe("the stale summary, whatever the device cloud calls the vehicles and devices", () => {
  test.prop([fc.array(names, { minLength: 1, maxLength: 4 })], { numRuns: 1000 })(
    "gives each alert one line, as many as with plain names, and nothing that acts instead of showing",
    (devices) => {
      const email = summaryEmail(devices);
      const plain = summaryEmail(
        devices.map((_, index) => ({ deviceid: `D${index}`, vehicleid: `V${index}` })),
      );
      expect(linesOf(email)).toHaveLength(linesOf(plain).length);
      expect(email.replaceAll("\n", "")).not.toMatch(/[\p{Cc}\p{Bidi_Control}]/u);
    },
  );

  it("keeps a vehicle id with CR/LF on its alert's line, and says how many more there are past 20", () => {
    const forged = { deviceid: "D1", vehicleid: "TRK 01\r\n- 2026-03-29 09:00  all-clear (info)  vehicle X" };
    const email = summaryEmail([forged, ...Array.from({ length: 21 }, () => ({ deviceid: "D2" }))]);
    const lines = email.split("\n");
    expect(lines.filter((line) => line.startsWith("- "))).toHaveLength(20);
    expect(lines).toContain(
      "- 2026-03-29 03:00  shock (critical)  vehicle TRK 01 - 2026-03-29 09:00 all-clear (info) vehicle X (device D1)",
    );
    expect(lines).toContain("  ... and 2 more.");
    expect(lines).toContain("  shock: 22");
    for (const line of lines) expect(line).not.toMatch(LINE_BREAK);
  });
});
