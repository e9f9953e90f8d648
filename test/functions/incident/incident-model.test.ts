import { alertItemSchema } from "@fleet-alerts/core/alerts";
import { describe, expect, it } from "vitest";
import { incidentOf } from "../../../packages/functions/src/incident/incident-model.js";
import { renderIncidentPage } from "../../../packages/functions/src/incident/incident-page.js";
import { incidentPaths } from "../../../packages/functions/src/incident/incident-paths.js";

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

describe("the incident page of footage asked for by hand", () => {
  const request = {
    reason: `Claim 7 <img src=x onerror=alert(1)>`,
    requestedBy: "dana & co",
    requestedAt: "2026-11-30T09:00:00.000Z",
  };
  const requested = record({
    ruleId: "on-request",
    alertId: "east:1001:on-request",
    appdevid: -1,
    severity: "info",
    status: "requested",
    evidence: VIDEO,
    request,
  });

  it("is named as a request, not an event code, and carries who asked and why", () => {
    const incident = incidentOf(requested, undefined, "Europe/Berlin");
    expect(incident.event.name).toBe("Footage requested");
    expect(incident.request).toEqual(request);
    expect(incident.evidence).toEqual({ status: "pending" });
  });

  it("shows the reason and who asked when, escaped, beside the moment", () => {
    const html = renderIncidentPage(incidentOf(requested, undefined, "Europe/Berlin"), incidentPaths("tok"), {
      allowed: false,
      proof: "proof",
    });
    expect(html).toContain("<h1>Footage requested · 0048028237</h1>");
    expect(html).toContain("<dt>Reason given</dt><dd>Claim 7 &lt;img src=x onerror=alert(1)&gt;</dd>");
    expect(html).toContain("<dt>Requested</dt><dd>by dana &amp; co at 2026-11-30 09:00:00 UTC (");
    expect(html).not.toContain("<img");
    // An alert's page says nothing of a request.
    expect(
      renderIncidentPage(incidentOf(record(), undefined, "UTC"), incidentPaths("tok"), {
        allowed: false,
        proof: "p",
      }),
    ).not.toContain("Requested");
  });
});
