import { fc, it as prop } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { JsonArrayStream } from "../../../packages/core/src/devicecloud/json-stream.js";

/** Feeds `body` to a stream in the given pieces; the elements it handed on, or what it threw. */
function streamed(body: Buffer, cuts: readonly number[] = []): unknown[] | Error {
  const elements: unknown[] = [];
  const stream = new JsonArrayStream((element) => elements.push(element));
  try {
    let at = 0;
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      stream.write(body.subarray(at, cut));
      at = cut;
    }
    stream.write(body.subarray(at));
    stream.end();
    return elements;
  } catch (error) {
    return error as Error;
  }
}

// JSON values without numbers where a serial number could be (those are kept as digits).
const element = fc
  .jsonValue({ maxDepth: 3 })
  .filter((value) => !JSON.stringify(value).includes('"serialno"'));

describe("a JSON array read as a stream", () => {
  prop.prop([fc.array(element, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 })])(
    "hands on each element as JSON.parse reads it, wherever the bytes are cut",
    (array, cutAt) => {
      const body = Buffer.from(JSON.stringify(array, null, 1));
      const cuts = cutAt.map((cut) => cut % (body.length + 1));
      expect(streamed(body, cuts)).toEqual(JSON.parse(body.toString()));
    },
  );

  it("keeps a numeric serial number's digits, and any other number as JSON.parse does", () => {
    const body = Buffer.from(
      '[{"serialno": 18446744073709551617, "speed": 1.5e1, "nested": {"serialno": 7}}]',
    );
    expect(streamed(body, [20, 21])).toEqual([
      { serialno: "18446744073709551617", speed: 15, nested: { serialno: "7" } },
    ]);
  });

  it("makes a lone surrogate U+FFFD, keeps a pair, and keeps __proto__ a member", () => {
    const body = Buffer.from('[{"a": "x\\ud800y", "b": "\\ud83d\\ude00", "__proto__": {"polluted": true}}]');
    const [event] = streamed(body) as [Record<string, unknown>];
    expect(event.a).toBe("x\uFFFDy");
    expect(event.b).toBe("😀");
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(Object.hasOwn(event, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("takes a byte-order mark and blanks around the array, and multi-byte characters cut anywhere", () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(' \n["Zürich 🚚"] \n')]);
    for (let cut = 0; cut <= body.length; cut++) expect(streamed(body, [cut])).toEqual(["Zürich 🚚"]);
  });

  it.each([
    ["<html><body>502</body></html>", "expected JSON but got an HTML page"],
    ['{"error": "busy"}', "expected a JSON array"],
    ["", "expected a JSON array but the body is empty"],
    ['[{"serialno": "1"},', "not valid JSON: the array ends early (19 bytes)"],
    ["[1,]", "not valid JSON near byte 4"],
    ["[1] [2]", "not valid JSON"],
  ])("refuses %j with a message that quotes none of it", (text, message) => {
    const error = streamed(Buffer.from(text));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(message);
    expect((error as Error).name).toBe("JsonArrayStreamError");
  });
});
