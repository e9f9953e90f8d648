import { fc, it as prop } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { SmallestSerials } from "../../../packages/core/src/poller/smallest-serials.js";

describe("the smallest serials of an answer", () => {
  prop.prop([
    fc.array(fc.bigInt({ min: 0n, max: 200n }), { maxLength: 300 }),
    fc.integer({ min: 1, max: 40 }),
  ])(
    "keeps the `capacity` smallest distinct serials, the first offer of each, whatever the order",
    (offers, capacity) => {
      const kept = new SmallestSerials<number>(capacity);
      for (const [index, serial] of offers.entries()) kept.offer(serial, index);
      const distinct = [...new Set(offers)].sort((a, b) => (a < b ? -1 : 1));
      expect(kept.ascending()).toEqual(
        distinct.slice(0, capacity).map((serial) => [serial, offers.indexOf(serial)]),
      );
      expect(kept.overflowed).toBe(distinct.length > capacity);
    },
  );

  it("never holds more than twice its capacity, however many serials are offered", () => {
    const kept = new SmallestSerials<null>(10);
    for (let serial = 100_000n; serial > 0n; serial--) {
      kept.offer(serial, null);
      expect(kept.ascending().length).toBeLessThanOrEqual(10);
    }
    expect(kept.ascending().map(([serial]) => serial)).toEqual(
      Array.from({ length: 10 }, (_, i) => BigInt(i + 1)),
    );
  });

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => new SmallestSerials(0)).toThrow(RangeError);
  });
});
