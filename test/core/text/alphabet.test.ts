import { SMS_SEGMENT_LENGTH, singleLine, toAscii, toGsm } from "@fleet-alerts/core/text";
import { describe, expect, it } from "vitest";

describe("singleLine", () => {
  it.each([
    ["TRK\n01\tBERLIN\r\n", "TRK 01 BERLIN"],
    ["Ada\u2028Lovelace\u0007", "Ada Lovelace"],
    ["para\u2029graph", "para graph"],
    ["  spaced   out  ", "spaced out"],
    ["bell\u0007", "bell"],
    ["Zoë „Łukasiewicz“", "Zoë „Łukasiewicz“"],
    ["", ""],
  ])("%j -> %j", (text, expected) => {
    expect(singleLine(text)).toBe(expected);
  });
});

describe("toAscii", () => {
  it.each([
    ["Zoë", "Zoe"],
    ["Nürnberg–München", "Nurnberg-Munchen"],
    ["„Süd“ ‚x‘ ’y’ “z”", `"Sud" 'x' 'y' "z"`],
    ["Łukasiewicz-Straße", "Lukasiewicz-Strasse"],
    ["Æsir Œuvre Ørsted Đoković Ðórr Þór ıi", "AEsir OEuvre Orsted Dokovic Dorr Thor ii"],
    ["æ œ ø ł đ ð þ", "ae oe o l d d th"],
    ["O'Brien € 5", "O'Brien EUR 5"],
    ["en – em —", "en - em -"],
    ["Фура 12", "12"],
    ["🚚 Truck 🚚", "Truck"],
    ["ﬁle ①", "file 1"],
    ["no\u00a0break", "no break"],
    ["TRK\n01", "TRK 01"],
    ["Truck [north] {A|B} ~1^2 `x` \\y", "Truck [north] {A|B} ~1^2 `x` \\y"],
  ])("%j -> %j", (text, expected) => {
    expect(toAscii(text)).toBe(expected);
  });
});

describe("toGsm", () => {
  it.each([
    ["[north]", "(north)"],
    ["{A|B}", "(A/B)"],
    ["a\\b", "a/b"],
    ["~1^2", "-12"],
    ["`x`", "'x'"],
    ["Zoë € [1]", "Zoe EUR (1)"],
    ["plain text, 42!", "plain text, 42!"],
  ])("%j -> %j", (text, expected) => {
    expect(toGsm(text)).toBe(expected);
  });

  it("leaves only characters of the GSM 03.38 basic set that cost one each", () => {
    let everyCodePoint = "";
    for (let code = 0; code < 0x3000; code++) everyCodePoint += String.fromCodePoint(code);
    expect(toGsm(everyCodePoint)).toMatch(/^[\x20-\x5a\x5f\x61-\x7a]*$/);
  });

  it("fills one SMS segment with 160 characters", () => {
    expect(SMS_SEGMENT_LENGTH).toBe(160);
  });
});
