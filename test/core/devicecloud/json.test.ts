import { describe, expect, it } from "vitest";
import { parseJsonKeepingSerials, stringifyFlatBody } from "../../../packages/core/src/devicecloud/json.js";

describe("JSON with serial numbers of any size", () => {
  it("writes a bigint as an exact JSON number and skips undefined members", () => {
    const body = stringifyFlatBody({
      username: "demo",
      afterSerialno: 123456789012345678901234567890n,
      hasLoopdata: true,
      deviceid: undefined,
      columns: ["serialno", "appdevid"],
    });
    expect(body).toBe(
      '{"username":"demo","afterSerialno":123456789012345678901234567890,"hasLoopdata":true,"columns":["serialno","appdevid"]}',
    );
  });

  it("escapes strings as JSON does", () => {
    expect(JSON.parse(stringifyFlatBody({ deviceid: 'a"b\\c\n' }))).toEqual({ deviceid: 'a"b\\c\n' });
  });

  it("keeps every digit of a numeric serialno in a response", () => {
    const parsed = parseJsonKeepingSerials('[{"serialno": 9007199254740993, "appdevid": 13}]') as {
      serialno: string;
    }[];
    expect(parsed[0]?.serialno).toBe("9007199254740993");
  });

  it("leaves string serial numbers and text inside other fields alone", () => {
    const text = JSON.stringify([{ serialno: "42", memo: 'note "serialno": 7' }]);
    expect(parseJsonKeepingSerials(text)).toEqual([{ serialno: "42", memo: 'note "serialno": 7' }]);
  });
});
