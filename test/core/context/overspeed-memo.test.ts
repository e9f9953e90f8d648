import { readOverSpeedMemo } from "@fleet-alerts/core/context";
import { describe, expect, it } from "vitest";

describe("readOverSpeedMemo", () => {
  it.each([
    ["the simulator's text", "92.3 km/h, limit 80 km/h", { speedKmh: 92.3, limitKmh: 80 }],
    ["key-value text", "speed:92 limit:80", { speedKmh: 92, limitKmh: 80 }],
    ["limit first", "SpeedLimit=100;Speed=117", { speedKmh: 117, limitKmh: 100 }],
    ["miles per hour", "limit 50 mph, 61 mph", { speedKmh: 61 * 1.609344, limitKmh: 50 * 1.609344 }],
    ["a JSON object", { speed: "97", speedLimit: 80 }, { speedKmh: 97, limitKmh: 80 }],
    ["no limit", "92 km/h", { speedKmh: 92 }],
    ["nothing readable", "over the limit!", {}],
    ["an implausible limit", "limit 0", {}],
    ["null", null, {}],
    ["a number", 92, {}],
  ])("reads %s", (_, memo, expected) => {
    const read = readOverSpeedMemo(memo);
    expect(Object.keys(read).sort()).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected))
      expect(read[key as keyof typeof read]).toBeCloseTo(value as number, 6);
  });
});
