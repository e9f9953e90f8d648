import { describe, expect, it } from "vitest";
import { JsonSyntaxError, parseJson } from "../../packages/simulator/src/json.js";

describe("simulator JSON reader", () => {
  it("keeps integers beyond 2^53 exact as bigint and leaves the rest as JSON.parse does", () => {
    const text =
      '{"a":9007199254740993,"b":12,"c":-18446744073709551617,"d":1.5e3,"e":[true,null,"x\\u00e9"]}';
    expect(parseJson(text)).toEqual({
      a: 9_007_199_254_740_993n,
      b: 12,
      c: -18_446_744_073_709_551_617n,
      d: 1500,
      e: [true, null, "xé"],
    });
    expect(parseJson(" [ ] ")).toEqual([]);
    expect(parseJson('"9007199254740993"')).toBe("9007199254740993");
  });

  it("keeps __proto__ as an ordinary key", () => {
    const parsed = parseJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["", "end of text"],
    ["{", "property name"],
    ['{"a":1,}', "property name"],
    ["[1,]", "unexpected character"],
    ["01", "after the value"],
    ["{'a':1}", "property name"],
    ['"tab\there"', "control character"],
    ['"\\q"', "invalid escape"],
    ["NaN", "unexpected character"],
    ["[1] 2", "after the value"],
    ['"open', "unterminated"],
    ["[".repeat(100), "nesting too deep"],
  ])("refuses %j (%s)", (text, message) => {
    expect(() => parseJson(text)).toThrow(JsonSyntaxError);
    expect(() => parseJson(text)).toThrow(message);
  });
});
