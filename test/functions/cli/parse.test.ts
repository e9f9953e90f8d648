import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import {
  integerAtLeast,
  parseAlertIdArgument,
  parseDurationMs,
  parseEventCodes,
  parseInstant,
  parseSerial,
  secondsAtLeast,
} from "../../../packages/functions/src/cli/parse.js";

describe("command-line values", () => {
  it("reads ISO dates and times, UTC unless an offset is given", () => {
    expect(parseInstant("2026-01-05")).toEqual({ ms: Date.parse("2026-01-05T00:00:00Z"), dateOnly: true });
    expect(parseInstant("2026-01-05T08:30")).toEqual({
      ms: Date.parse("2026-01-05T08:30:00Z"),
      dateOnly: false,
    });
    expect(parseInstant("2026-01-05 08:30:15.5").ms).toBe(Date.parse("2026-01-05T08:30:15.500Z"));
    expect(parseInstant("2026-01-05T08:30:00+05:30").ms).toBe(Date.parse("2026-01-05T03:00:00Z"));
    expect(parseInstant("2026-01-05T08:30:00-0330").ms).toBe(Date.parse("2026-01-05T12:00:00Z"));
  });

  it("refuses what is not a calendar date and time, rather than rolling it over", () => {
    for (const text of [
      "2026-02-30",
      "2026-13-01",
      "2026-01-05T24:00",
      "2026-01-05T08:60",
      "5 Jan 2026",
      "2026-01-05+01:00",
    ])
      expect(() => parseInstant(text), text).toThrow(InvalidArgumentError);
    expect(() => parseInstant("2026-01-05T08:00+15:00")).toThrow("not a valid UTC offset: +15:00");
  });

  it("reads whole numbers, seconds, serial numbers and event codes", () => {
    expect(integerAtLeast(1)("30")).toBe(30);
    for (const text of ["0", "-1", "1.5", "1e3", ""])
      expect(() => integerAtLeast(1)(text), text).toThrow(InvalidArgumentError);
    expect(secondsAtLeast(0.1)("0.25")).toBe(0.25);
    expect(() => secondsAtLeast(0.1)("0.05")).toThrow("expected a number of seconds of at least 0.1");
    expect(parseSerial("98765432109876543210")).toBe(98765432109876543210n);
    expect(() => parseSerial("12ab")).toThrow("expected a serial number (digits only)");
    expect(parseEventCodes("13, gsensor,250,Trigger in")).toEqual([13, 16, 250, 51]);
    expect(() => parseEventCodes("13,Overspeeed")).toThrow('unknown event code or name "Overspeeed"');
  });

  it("reads durations of a minute or more as rules write them, and alert ids into their parts", () => {
    expect(parseDurationMs("90m")).toBe(90 * 60_000);
    expect(parseDurationMs("72h")).toBe(72 * 3_600_000);
    expect(parseDurationMs(" 30d ")).toBe(30 * 86_400_000);
    expect(parseDurationMs("1d12h")).toBe(36 * 3_600_000);
    for (const text of ["", "0m", "59s", "30", "1.5h", "2w", "-1d", "d", "99999999999999999d"])
      expect(() => parseDurationMs(text), text).toThrow(InvalidArgumentError);
    expect(parseAlertIdArgument("east:42:overspeed")).toEqual({
      account: "east",
      serialno: 42n,
      ruleId: "overspeed",
    });
    expect(() => parseAlertIdArgument("east:42")).toThrow(InvalidArgumentError);
  });
});
