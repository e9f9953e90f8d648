import { fc, test } from "@fast-check/vitest";
import { DigestTally } from "@fleet-alerts/core/notices";
import type { RoutedItem } from "@fleet-alerts/core/routing";
import { deviceShown, displayName } from "@fleet-alerts/core/text";
import { describe, expect, it } from "vitest";
import { digestText } from "../../../packages/core/src/notices/digest-text.js";
import { alertLine } from "../../../packages/core/src/notices/format.js";
import { deviceIdArbitrary, LINE_BREAK, linesOf, untrustedString } from "../../support/untrusted-strings.js";

const ZONE = "Europe/Berlin";
const FROM_MS = Date.parse("2026-03-28T23:00:00Z");
const TO_MS = Date.parse("2026-03-29T22:00:00Z");

interface Ids {
  vehicleid: string | undefined;
  deviceid: string;
}

/** A day's routed alert of a device the device cloud names so. */
function routed({ vehicleid, deviceid }: Ids, index: number): RoutedItem {
  const alertId = `east:${1000 + index}:gsensor`;
  const at = new Date(FROM_MS + (index + 1) * 60_000).toISOString();
  return {
    pk: "GROUP#depot",
    sk: `ROUTED#${at}#${alertId}`,
    group: "depot",
    alertId,
    account: "east",
    serialno: String(1000 + index),
    ruleId: "gsensor",
    severity: "critical",
    deviceid,
    ...(vehicleid !== undefined && { vehicleid }),
    eventtime: at,
    routedAt: at,
    held: false,
    expiresAt: 0,
  };
}

/** The digest email of these alerts (the first `listed` of them listed, every other one with a link). */
function digestEmail(alerts: readonly Ids[], listed: number): string {
  const tally = new DigestTally(listed);
  for (const [index, alert] of alerts.entries()) tally.add(routed(alert, index), undefined);
  const model = tally.model();
  return digestText({
    group: "depot",
    zone: ZONE,
    date: "2026-03-29",
    fromMs: FROM_MS,
    toMs: TO_MS,
    model,
    links: model.oldestNotAcknowledged.map((_, index) =>
      index % 2 === 0 ? "https://alerts.example.com/i/tok" : undefined,
    ),
  }).email;
}

const ids = fc.record({
  vehicleid: fc.option(untrustedString(), { nil: undefined }),
  deviceid: deviceIdArbitrary(),
});
/** The same vehicles under plain names: alerts the digest counts as one vehicle get one name. */
function plain(alerts: readonly Ids[]): Ids[] {
  const names = new Map<string, string>();
  return alerts.map(({ vehicleid, deviceid }) => {
    const vehicle = displayName(vehicleid) ?? `device ${deviceShown(deviceid)}`;
    if (!names.has(vehicle)) names.set(vehicle, `V${names.size}`);
    return { vehicleid: names.get(vehicle), deviceid: "d" };
  });
}

describe("a notice's alert line, whatever the device cloud calls the vehicle and device", () => {
  test.prop([ids], { numRuns: 1000 })("is one line with nothing that acts instead of showing", (sent) => {
    const line = alertLine(ZONE, { ...routed(sent, 0) });
    expect(line).not.toMatch(LINE_BREAK);
    expect(line).not.toMatch(/[\p{Cc}\p{Bidi_Control}]/u);
  });
});

describe("the daily digest, whatever the device cloud calls the vehicles and devices", () => {
  test.prop([fc.array(ids, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 8 })], {
    numRuns: 1000,
  })("gives each alert exactly one line, as many as with plain names", (alerts, listed) => {
    expect(linesOf(digestEmail(alerts, listed))).toHaveLength(
      linesOf(digestEmail(plain(alerts), listed)).length,
    );
  });

  test.prop([fc.array(ids, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 8 })], {
    numRuns: 1000,
  })("holds no control character but its own line breaks, and no bidi control", (alerts, listed) => {
    const email = digestEmail(alerts, listed);
    expect(email.replaceAll("\n", "")).not.toMatch(/[\p{Cc}\p{Bidi_Control}]/u);
  });
});

describe("the examples that forged lines of a digest", () => {
  it("keeps a vehicle id with CR/LF on its alert's line, and the digest's other lines as they were", () => {
    const forged = {
      vehicleid: "TRK 01\r\n- 2026-03-29 09:00  all-clear (info)  vehicle TRK 01",
      deviceid: "D1",
    };
    expect(alertLine(ZONE, routed(forged, 0))).toBe(
      "2026-03-29 00:01  gsensor (critical)  vehicle TRK 01 - 2026-03-29 09:00 all-clear (info) vehicle TRK 01 (device D1)",
    );
    const email = digestEmail([forged, { vehicleid: "TRK 02", deviceid: "D2" }], 2);
    expect(email.split("\n")).toHaveLength(
      digestEmail(
        [
          { vehicleid: "V0", deviceid: "d" },
          { vehicleid: "V1", deviceid: "d" },
        ],
        2,
      ).split("\n").length,
    );
    expect(email.split("\n").filter((line) => line.startsWith("- "))).toHaveLength(2);
  });

  it("names a device whose vehicle id is blank by its id, and a device id of dots as it is", () => {
    expect(alertLine(ZONE, routed({ vehicleid: " \t ", deviceid: ".." }, 0))).toBe(
      "2026-03-29 00:01  gsensor (critical)  device ..",
    );
  });
});
