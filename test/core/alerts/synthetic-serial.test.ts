import { isSyntheticSerial, SYNTHETIC_SERIAL_FLOOR, syntheticSerial } from "@fleet-alerts/core/alerts";
import { parseAlertId } from "@fleet-alerts/core/share";
import { keys, sortableSerial } from "@fleet-alerts/core/store";
import { describe, expect, it } from "vitest";

describe("synthetic serial numbers", () => {
  it("is the same for the same identity and differs when any part differs", () => {
    const serial = syntheticSerial("dev-1", "2026-11-20T10:00:00.000Z");
    expect(syntheticSerial("dev-1", "2026-11-20T10:00:00.000Z")).toBe(serial);
    expect(syntheticSerial("dev-2", "2026-11-20T10:00:00.000Z")).not.toBe(serial);
    // Parts are not simply joined: moving a character between parts is another identity.
    expect(syntheticSerial("ab", "c")).not.toBe(syntheticSerial("a", "bc"));
  });

  it("is 40 digits from 9×10^39: a valid alert id, a sortable key, never in a real chunk's range", () => {
    const serial = syntheticSerial("dev-1", "x");
    expect(serial.toString()).toMatch(/^9\d{39}$/);
    expect(isSyntheticSerial(serial)).toBe(true);
    expect(isSyntheticSerial(SYNTHETIC_SERIAL_FLOOR - 1n)).toBe(false);
    expect(parseAlertId(`north:${serial}:not-recording`).serialno).toBe(serial);
    expect(sortableSerial(serial)).toBe(serial.toString());
    const realChunk = keys.alertRange(0n, 10n ** 30n);
    expect(keys.alert(serial, "r") > realChunk.to).toBe(true);
  });
});
