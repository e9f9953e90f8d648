import { describe, expect, it } from "vitest";
import {
  FULL_GC_EVERY_BYTES,
  gcPacer,
  MINOR_GC_EVERY_BYTES,
} from "../../../packages/core/src/evidence/gc-pacer.js";

describe("gcPacer", () => {
  it("collects the young generation every MiB received and everything every 128 MiB", () => {
    const collections: string[] = [];
    const received = gcPacer((options) => collections.push(options?.type ?? "full"));
    // 64 KiB reads, as a socket gives them, for 130 MiB.
    const reads = (130 * 1024 * 1024) / (64 * 1024);
    for (let read = 0; read < reads; read++) received(64 * 1024);
    expect(collections.filter((type) => type === "full")).toHaveLength(1);
    // One per MiB but the 128th, which the full collection stands for.
    expect(collections.filter((type) => type === "minor")).toHaveLength(129);
    expect(collections.indexOf("full")).toBe(FULL_GC_EVERY_BYTES / MINOR_GC_EVERY_BYTES - 1);
  });

  it("collects at each boundary a read crosses, whatever the reads' sizes", () => {
    const collections: string[] = [];
    const received = gcPacer((options) => collections.push(options?.type ?? "full"));
    received(MINOR_GC_EVERY_BYTES - 1);
    expect(collections).toEqual([]);
    received(1);
    expect(collections).toEqual(["minor"]);
    received(3 * MINOR_GC_EVERY_BYTES);
    expect(collections).toEqual(["minor", "minor"]);
  });

  it("does nothing where gc is not exposed (tests, the local mode)", () => {
    const received = gcPacer(undefined);
    expect(() => received(FULL_GC_EVERY_BYTES)).not.toThrow();
  });
});
