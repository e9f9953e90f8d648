import { timeZoneSchema } from "@fleet-alerts/core/config";
import { describe, expect, it } from "vitest";

describe("time zone schema", () => {
  it("offers a schema for configuration that accepts IANA zones only", () => {
    expect(timeZoneSchema.safeParse("Australia/Adelaide").success).toBe(true);
    const refused = timeZoneSchema.safeParse("Mars/Olympus_Mons");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('must be an IANA time zone such as "Europe/Berlin"');
  });
});
