import { alertItemSchema } from "@fleet-alerts/core/alerts";
import { escalationPolicySchema, MAX_ESCALATION_LEVELS } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { historySection } from "../../../packages/functions/src/incident/history-section.js";
import { incidentOf } from "../../../packages/functions/src/incident/incident-model.js";

const PUBLISHED_MS = Date.parse("2026-11-23T10:00:05.000Z");
const WAIT_MS = 10 * 60_000;

/** An alert everything has happened to: published, escalated through every level, acknowledged. */
const everything = alertItemSchema.parse({
  account: "east",
  serialno: "1001",
  ruleId: "gsensor",
  alertId: "east:1001:gsensor",
  deviceid: "0048028237",
  appdevid: 13,
  eventtime: "2026-11-23T10:00:00.000Z",
  severity: "critical",
  status: "published",
  createdAt: "2026-11-23T10:00:05.000Z",
  publishedAt: new Date(PUBLISHED_MS).toISOString(),
  escalation: { afterSeconds: WAIT_MS / 1000, levels: MAX_ESCALATION_LEVELS },
  escalatedLevels: MAX_ESCALATION_LEVELS,
  escalationsSent: MAX_ESCALATION_LEVELS,
  escalationClaimedAtMs: PUBLISHED_MS + MAX_ESCALATION_LEVELS * WAIT_MS,
  acknowledgement: { by: "ops", atMs: PUBLISHED_MS + (MAX_ESCALATION_LEVELS + 1) * WAIT_MS },
});

describe("the incident page's history", () => {
  it(`is at most ${3 + MAX_ESCALATION_LEVELS} lines: each thing that can happen to an alert happens once`, () => {
    const incident = {
      ...incidentOf(everything, undefined, "Europe/Berlin"),
      evidence: { status: "stored" as const, clips: [], storedAtMs: PUBLISHED_MS + 60_000 },
    };
    const lines = historySection(incident).match(/<li>.*<\/li>/g) ?? [];
    expect(lines).toHaveLength(3 + MAX_ESCALATION_LEVELS);
    expect(lines.map((line) => line.replace(/^<li>.*\): /, "").replace("</li>", ""))).toEqual([
      "Alert published",
      "Evidence stored",
      ...Array.from({ length: MAX_ESCALATION_LEVELS }, (_, index) => `Escalated to level ${index + 1}`),
      "Acknowledged by ops",
    ]);
  });

  it("cannot grow past it: a rule may not ask for more escalation levels", () => {
    expect(escalationPolicySchema.safeParse({ after: "10m", levels: MAX_ESCALATION_LEVELS }).success).toBe(
      true,
    );
    expect(
      escalationPolicySchema.safeParse({ after: "10m", levels: MAX_ESCALATION_LEVELS + 1 }).success,
    ).toBe(false);
  });
});
