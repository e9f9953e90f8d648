import { DEFAULT_RULES, parseRules, type Rule } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";

const SIX_HOURS = 21_600;

describe("default rules", () => {
  it("are exactly the six specified rules, normalized", () => {
    const withoutDescriptions = DEFAULT_RULES.map(({ description: _, ...rule }) => rule);
    expect(withoutDescriptions).toEqual([
      {
        id: "overspeed",
        enabled: true,
        eventCodes: [13],
        severity: "warning",
        cooldownSeconds: 300,
        staleAfterSeconds: SIX_HOURS,
        evidence: { channels: [1], secondsBefore: 30, secondsAfter: 30 },
      },
      {
        id: "gsensor",
        enabled: true,
        eventCodes: [16],
        severity: "critical",
        cooldownSeconds: 60,
        staleAfterSeconds: SIX_HOURS,
        evidence: { channels: [1, 2], secondsBefore: 15, secondsAfter: 15 },
        escalate: { afterSeconds: 600, levels: 2 },
      },
      {
        id: "offline",
        enabled: true,
        eventCodes: [3],
        severity: "warning",
        offlineForMinutes: 10,
        cooldownSeconds: 1800,
        staleAfterSeconds: SIX_HOURS,
      },
      {
        id: "disk-error",
        enabled: true,
        eventCodes: [12],
        severity: "critical",
        cooldownSeconds: 3600,
        staleAfterSeconds: SIX_HOURS,
      },
      {
        id: "video-loss",
        enabled: true,
        eventCodes: [15],
        severity: "warning",
        cooldownSeconds: 3600,
        staleAfterSeconds: SIX_HOURS,
      },
      {
        id: "lost-record-cover",
        enabled: true,
        eventCodes: [98],
        severity: "warning",
        cooldownSeconds: SIX_HOURS,
        staleAfterSeconds: SIX_HOURS,
      },
    ] satisfies Omit<Rule, "description">[]);
  });

  it("each carry a description", () => {
    for (const rule of DEFAULT_RULES) expect(rule.description).toMatch(/\w{4}/);
  });

  it("pass validation again when written back as a rules file", () => {
    const asFile = {
      rules: DEFAULT_RULES.map(({ eventCodes, escalate, ...rule }) => ({
        ...rule,
        events: eventCodes,
        // The file writes a wait as a person would; the rule holds it in seconds.
        ...(escalate && { escalate: { after: `${escalate.afterSeconds}s`, levels: escalate.levels } }),
      })),
    };
    expect(parseRules(asFile)).toEqual({ ok: true, rules: DEFAULT_RULES });
  });

  it("cannot be changed by a consumer", () => {
    expect(Object.isFrozen(DEFAULT_RULES)).toBe(true);
  });
});
