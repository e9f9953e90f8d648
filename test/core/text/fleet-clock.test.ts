import { fleetClock, shortOffset, utcTime } from "@fleet-alerts/core/text";
import { describe, expect, it } from "vitest";

describe("fleetClock", () => {
  it.each([
    // Both sides of the spring-forward change, and the repeated hour of the fall-back change.
    [
      "2026-03-29T00:59:59Z",
      "Europe/Berlin",
      "2026-03-29 01:59:59 Europe/Berlin (UTC+01:00)",
      "29 Mar 01:59 UTC+1",
    ],
    [
      "2026-03-29T01:00:00Z",
      "Europe/Berlin",
      "2026-03-29 03:00:00 Europe/Berlin (UTC+02:00)",
      "29 Mar 03:00 UTC+2",
    ],
    [
      "2026-10-25T00:30:00Z",
      "Europe/Berlin",
      "2026-10-25 02:30:00 Europe/Berlin (UTC+02:00)",
      "25 Oct 02:30 UTC+2",
    ],
    [
      "2026-10-25T01:30:00Z",
      "Europe/Berlin",
      "2026-10-25 02:30:00 Europe/Berlin (UTC+01:00)",
      "25 Oct 02:30 UTC+1",
    ],
    // Half-hour offsets, east and west, with the change of date.
    [
      "2026-01-05T20:00:00Z",
      "Asia/Kolkata",
      "2026-01-06 01:30:00 Asia/Kolkata (UTC+05:30)",
      "6 Jan 01:30 UTC+5:30",
    ],
    [
      "2026-01-05T02:00:00Z",
      "America/St_Johns",
      "2026-01-04 22:30:00 America/St_Johns (UTC-03:30)",
      "4 Jan 22:30 UTC-3:30",
    ],
    ["2026-07-01T12:00:00Z", "UTC", "2026-07-01 12:00:00 UTC (UTC+00:00)", "1 Jul 12:00 UTC"],
    [
      "2026-12-31T23:59:59Z",
      "Pacific/Kiritimati",
      "2027-01-01 13:59:59 Pacific/Kiritimati (UTC+14:00)",
      "1 Jan 13:59 UTC+14",
    ],
  ])("%s in %s", (instant, zone, long, short) => {
    const clock = fleetClock(zone);
    expect(clock.long(Date.parse(instant))).toBe(long);
    expect(clock.short(Date.parse(instant))).toBe(short);
  });

  it("writes date, time and short offset together", () => {
    expect(fleetClock("Europe/Berlin").dateTime(Date.parse("2026-03-29T01:29:55Z"))).toBe(
      "2026-03-29 03:29:55 UTC+2",
    );
  });

  it("keeps one clock per zone", () => {
    expect(fleetClock("Asia/Tokyo")).toBe(fleetClock("Asia/Tokyo"));
  });

  it("refuses an unknown time zone with an error naming it", () => {
    expect(() => fleetClock("Europe/Berln")).toThrow(
      new RangeError('fleet time zone "Europe/Berln" is not an IANA time zone (such as "Europe/Berlin")'),
    );
    expect(() => fleetClock("")).toThrow(RangeError);
  });
});

describe("shortOffset", () => {
  it.each([
    ["+02:00", "UTC+2"],
    ["+05:30", "UTC+5:30"],
    ["-03:30", "UTC-3:30"],
    ["+14:00", "UTC+14"],
    ["+00:00", "UTC"],
    ["-00:00", "UTC"],
    ["+0545", "UTC+0545"],
  ])("%s -> %s", (offset, expected) => {
    expect(shortOffset(offset)).toBe(expected);
  });
});

describe("utcTime", () => {
  it.each([
    ["2026-03-29T01:30:00.000Z", "2026-03-29 01:30:00 UTC"],
    ["2026-03-29T03:30:00.999+02:00", "2026-03-29 01:30:00 UTC"],
  ])("%s -> %s", (instant, expected) => {
    expect(utcTime(Date.parse(instant))).toBe(expected);
  });
});
