import { describe, expect, it } from "vitest";
import { cachedOnSuccess } from "../../packages/functions/src/once.js";

describe("a handler's runtime, built once per container", () => {
  it("is built once and shared after a success", async () => {
    let builds = 0;
    const get = cachedOnSuccess(async () => ++builds);
    expect(await Promise.all([get(), get()])).toEqual([1, 1]);
    expect(await get()).toBe(1);
  });

  it("is built again after a failure, so a passing cold-start error does not stick", async () => {
    let builds = 0;
    const get = cachedOnSuccess(async () => {
      builds++;
      if (builds === 1) throw new Error("SSM throttled");
      return "ready";
    });
    await expect(get()).rejects.toThrow("SSM throttled");
    expect(await get()).toBe("ready");
    expect(await get()).toBe("ready");
    expect(builds).toBe(2);
  });
});
