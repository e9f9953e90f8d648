import { describe, expect, it } from "vitest";
import { backoffDelayMs, retryPolicySchema } from "../../../packages/core/src/devicecloud/retry.js";

const policy = retryPolicySchema.parse({ baseDelayMs: 100, maxDelayMs: 1_000 });

describe("back-off", () => {
  it("doubles the ceiling per retry up to the maximum", () => {
    const atCeiling = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelayMs(policy, retry, atCeiling))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
  });

  it("draws uniformly below the ceiling (full jitter)", () => {
    expect(backoffDelayMs(policy, 3, () => 0)).toBe(0);
    expect(backoffDelayMs(policy, 3, () => 0.5)).toBe(200);
  });

  it("waits at least what the service asked for with Retry-After", () => {
    expect(backoffDelayMs(policy, 1, () => 0.5, 3_000)).toBe(3_000);
  });

  it("has bounded defaults", () => {
    expect(retryPolicySchema.parse({})).toEqual({
      maxAttempts: 4,
      baseDelayMs: 250,
      maxDelayMs: 5_000,
      maxElapsedMs: 20_000,
    });
  });
});
