import { type Rule, ruleAppliesTo, ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";

function rule(overrides: Record<string, unknown> = {}): Rule {
  return ruleSchema.parse({ id: "r", events: [13, 77], severity: "info", ...overrides });
}

describe("ruleAppliesTo", () => {
  it("matches any device on any of the rule's codes when there is no device filter", () => {
    expect(ruleAppliesTo(rule(), { appdevid: 13, deviceid: "anything" })).toBe(true);
    expect(ruleAppliesTo(rule(), { appdevid: 77, deviceid: "D2" })).toBe(true);
    expect(ruleAppliesTo(rule(), { appdevid: 16, deviceid: "D2" })).toBe(false);
  });

  it("matches a listed id exactly, not as a prefix", () => {
    const byId = rule({ devices: { ids: ["0012345678"] } });
    expect(ruleAppliesTo(byId, { appdevid: 13, deviceid: "0012345678" })).toBe(true);
    expect(ruleAppliesTo(byId, { appdevid: 13, deviceid: "00123456789" })).toBe(false);
    expect(ruleAppliesTo(byId, { appdevid: 13, deviceid: "001234567" })).toBe(false);
  });

  it("matches the start of an id with a prefix, case-sensitively", () => {
    const byPrefix = rule({ devices: { prefixes: ["TRK-", "VAN"] } });
    expect(ruleAppliesTo(byPrefix, { appdevid: 13, deviceid: "TRK-01" })).toBe(true);
    expect(ruleAppliesTo(byPrefix, { appdevid: 13, deviceid: "VAN9" })).toBe(true);
    expect(ruleAppliesTo(byPrefix, { appdevid: 13, deviceid: "trk-01" })).toBe(false);
    expect(ruleAppliesTo(byPrefix, { appdevid: 13, deviceid: "X-TRK-01" })).toBe(false);
  });

  it("matches when either the ids or the prefixes cover the device", () => {
    const both = rule({ devices: { ids: ["CAR-7"], prefixes: ["TRK-"] } });
    expect(ruleAppliesTo(both, { appdevid: 13, deviceid: "CAR-7" })).toBe(true);
    expect(ruleAppliesTo(both, { appdevid: 13, deviceid: "TRK-2" })).toBe(true);
    expect(ruleAppliesTo(both, { appdevid: 13, deviceid: "CAR-8" })).toBe(false);
  });

  it("needs the code as well as the device", () => {
    const both = rule({ devices: { ids: ["CAR-7"] } });
    expect(ruleAppliesTo(both, { appdevid: 16, deviceid: "CAR-7" })).toBe(false);
  });

  it("never matches a disabled rule", () => {
    expect(ruleAppliesTo(rule({ enabled: false }), { appdevid: 13, deviceid: "D1" })).toBe(false);
  });
});
