import { renderAttributes, stringAttributes } from "@fleet-alerts/core/alerts";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { eventAt, factsOf, INCIDENT_AT_EVENT } from "../fixtures.js";

describe("SNS message attributes", () => {
  it("has exactly the attributes that filter policies use", () => {
    expect(renderAttributes(factsOf({ suppressedBefore: 3 }))).toEqual({
      kind: { DataType: "String", StringValue: "alert" },
      alert_id: { DataType: "String", StringValue: "east:1000123:gsensor" },
      account: { DataType: "String", StringValue: "east" },
      rule: { DataType: "String", StringValue: "gsensor" },
      severity: { DataType: "String", StringValue: "critical" },
      event_code: { DataType: "Number", StringValue: "16" },
      deviceid: { DataType: "String", StringValue: "0012345678" },
      position_source: { DataType: "String", StringValue: "last-known" },
    });
  });

  it("says where the position came from, or that it is unknown, for filter policies", () => {
    const sourceOf = (overrides: Parameters<typeof factsOf>[0]) =>
      renderAttributes(factsOf(overrides)).position_source?.StringValue;
    expect(sourceOf({ incident: INCIDENT_AT_EVENT })).toBe("event");
    expect(sourceOf({ device: undefined })).toBe("unknown");
  });

  it("carries an event code outside the spec's table as a number", () => {
    const rule = ruleSchema.parse({ id: "odd", events: [77], severity: "info" });
    const attributes = renderAttributes(
      factsOf({ rule, event: eventAt("2026-03-29T01:30:00Z", { appdevid: 77 }) }),
    );
    expect(attributes.event_code).toEqual({ DataType: "Number", StringValue: "77" });
  });

  it("makes string attributes of plain values", () => {
    expect(stringAttributes({ kind: "evidence", rule: "r" })).toEqual({
      kind: { DataType: "String", StringValue: "evidence" },
      rule: { DataType: "String", StringValue: "r" },
    });
  });
});
