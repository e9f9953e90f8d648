import { alertItemSchema } from "@fleet-alerts/core/alerts";
import { describe, expect, it } from "vitest";
import { incidentOf } from "../../../packages/functions/src/incident/incident-model.js";

// A record as the table returns it, before any evidence is stored.
const record = (fields: Record<string, unknown> = {}) =>
  alertItemSchema.parse({
    account: "east",
    serialno: "1001",
    ruleId: "offline",
    alertId: "east:1001:offline",
    deviceid: "0048028237",
    appdevid: 3,
    eventtime: "2026-11-23T10:00:00.000Z",
    severity: "warning",
    status: "published",
    createdAt: "2026-11-23T10:00:05.000Z",
    ...fields,
  });
const VIDEO = { channels: [1], secondsBefore: 15, secondsAfter: 15 };

describe("the incident model's evidence status, before anything is stored", () => {
  it("is pending for an alert whose rule asks for video", () => {
    expect(incidentOf(record({ evidence: VIDEO }), undefined, "UTC").evidence).toEqual({ status: "pending" });
  });

  it("says none was asked for an alert whose rule wants no video, rather than pending for ever", () => {
    expect(incidentOf(record(), undefined, "UTC").evidence).toEqual({ status: "not-requested" });
  });

  it("is unavailable once the evidence function has failed", () => {
    const failed = record({ evidence: VIDEO, evidenceStatus: "failed" });
    expect(incidentOf(failed, undefined, "UTC").evidence).toMatchObject({ status: "unavailable" });
  });
});
