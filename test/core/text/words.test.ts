import { listInWords, nonEmpty, plural } from "@fleet-alerts/core/text";
import { describe, expect, it } from "vitest";

describe("plural", () => {
  it.each([
    [0, "repeat", "0 repeats"],
    [1, "repeat", "1 repeat"],
    [2, "minute", "2 minutes"],
    [12, "repeat", "12 repeats"],
  ])("%i %s -> %j", (count, noun, expected) => {
    expect(plural(count, noun)).toBe(expected);
  });
});

describe("listInWords", () => {
  it.each([
    [[], ""],
    [["1"], "1"],
    [["1", "2"], "1 and 2"],
    [["4", "1", "2"], "4, 1 and 2"],
    [["a", "b", "c", "d"], "a, b, c and d"],
  ])("%j -> %j", (items, expected) => {
    expect(listInWords(items)).toBe(expected);
  });
});

describe("nonEmpty", () => {
  it.each([
    ["", undefined],
    [" ", " "],
    ["TRK-01", "TRK-01"],
  ])("%j -> %j", (text, expected) => {
    expect(nonEmpty(text)).toBe(expected);
  });
});
