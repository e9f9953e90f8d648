import { describe, expect, it } from "vitest";
import { OldestFirst } from "../../../packages/core/src/notices/oldest-first.js";

const at = (minute: number, id: string) => ({
  eventtime: `2026-05-12T03:${String(minute).padStart(2, "0")}:00Z`,
  id,
});

describe("the oldest alerts of a stream", () => {
  it("keeps the oldest few in event-time order, whatever order they come in, and counts them all", () => {
    const oldest = new OldestFirst<ReturnType<typeof at>>(3);
    for (const minute of [40, 5, 59, 12, 30, 1, 44]) oldest.add(at(minute, `m${minute}`));
    expect(oldest.listed.map((alert) => alert.id)).toEqual(["m1", "m5", "m12"]);
    expect(oldest.count).toBe(7);
  });

  it("keeps alerts of the same time in the order they came", () => {
    const oldest = new OldestFirst<ReturnType<typeof at>>(2);
    for (const id of ["a", "b", "c"]) oldest.add(at(7, id));
    expect(oldest.listed.map((alert) => alert.id)).toEqual(["a", "b"]);
  });

  it("lists none when asked for none, and still counts", () => {
    const oldest = new OldestFirst<ReturnType<typeof at>>(0);
    oldest.add(at(1, "a"));
    expect(oldest.listed).toEqual([]);
    expect(oldest.count).toBe(1);
  });
});
