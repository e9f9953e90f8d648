import { fitLine, shareRoom, shorten } from "@fleet-alerts/core/text";
import { describe, expect, it } from "vitest";

describe("shorten", () => {
  it.each([
    ["short", 10, "short"],
    ["exactly10!", 10, "exactly10!"],
    ["abcdefghijk", 10, "abcdefg..."],
    ["abc    defgh", 10, "abc..."],
    ["abcdef", 3, "abc"],
    ["abcdef", 1, "a"],
    ["abcdef", 0, ""],
    ["abcdef", -2, ""],
  ])("%j in %i -> %j", (text, max, expected) => {
    expect(shorten(text, max)).toBe(expected);
    expect(shorten(text, max).length).toBeLessThanOrEqual(Math.max(0, max));
  });
});

describe("shareRoom", () => {
  it.each([
    { first: "abc", second: "de", room: 5, expected: ["abc", "de"] },
    { first: "V".repeat(20), second: "D".repeat(20), room: 20, expected: ["VVVVVVV...", "DDDDDDD..."] },
    { first: "V".repeat(20), second: "D".repeat(20), room: 21, expected: ["VVVVVVV...", "DDDDDDDD..."] },
    { first: "V".repeat(20), second: "Ada", room: 15, expected: ["VVVVVVVVV...", "Ada"] },
    { first: "Ada", second: "D".repeat(20), room: 15, expected: ["Ada", "DDDDDDDDD..."] },
    { first: "V".repeat(20), second: "", room: 10, expected: ["VVVVVVV...", ""] },
  ])("$first / $second in $room", ({ first, second, room, expected }) => {
    const shared = shareRoom(first, second, room);
    expect(shared).toEqual(expected);
    expect(shared[0].length + shared[1].length).toBeLessThanOrEqual(room);
  });
});

describe("fitLine", () => {
  it.each([
    { parts: { head: "H ", name: "Truck" }, max: 20, expected: "H Truck" },
    { parts: { head: "H ", name: "Truck", tail: " T" }, max: 20, expected: "H Truck T" },
    { parts: { head: "H ", name: "Truck", aside: "Ada", tail: " T" }, max: 20, expected: "H Truck (Ada) T" },
    { parts: { head: "H ", name: "V".repeat(30), tail: " T" }, max: 20, expected: "H VVVVVVVVVVVVV... T" },
    {
      parts: { head: "H ", name: "V".repeat(30), aside: "D".repeat(30) },
      max: 20,
      expected: "H VVVV... (DDDDD...)",
    },
    { parts: { head: "H ", name: "Truck", aside: "" }, max: 20, expected: "H Truck ()" },
    // Head and tail alone too long: the whole line is cut.
    {
      parts: { head: "H".repeat(15), name: "Truck", tail: "T".repeat(10) },
      max: 20,
      expected: `${"H".repeat(15)}TT...`,
    },
  ])("$parts.name / $parts.aside in $max", ({ parts, max, expected }) => {
    expect(fitLine(parts, max)).toBe(expected);
    expect(fitLine(parts, max).length).toBeLessThanOrEqual(max);
  });
});
