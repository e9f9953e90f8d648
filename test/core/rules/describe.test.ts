import { DEFAULT_RULES, describeRule, ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";

describe("describeRule", () => {
  it("says what each default rule does on one line", () => {
    expect(DEFAULT_RULES.map(describeRule)).toEqual([
      "overspeed [warning] OverSpeed(13) all devices, cooldown 5 min, stale after 6 h, evidence ch1 -30 s/+30 s",
      "gsensor [critical] GSensor(16) all devices, cooldown 1 min, stale after 6 h, evidence ch1+ch2 -15 s/+15 s, escalate after 10 min per level, 2 levels",
      "offline [warning] Offline(3) all devices, after 10 min offline, cooldown 30 min, stale after 6 h",
      "disk-error [critical] DiskError(12) all devices, cooldown 1 h, stale after 6 h",
      "video-loss [warning] VideoLoss(15) all devices, cooldown 1 h, stale after 6 h",
      "lost-record-cover [warning] Lost Record Cover(98) all devices, cooldown 6 h, stale after 6 h",
    ]);
  });

  it("shows disabled rules, several and unknown codes, device filters, odd durations and no cooldown", () => {
    const rule = ruleSchema.parse({
      id: "mixed",
      enabled: false,
      events: ["Trigger in", 77, "GSensor"],
      devices: { ids: ["0012345678"], prefixes: ["TRK-"] },
      severity: "info",
      staleAfterSeconds: 90_061,
      evidence: { channels: [3], secondsBefore: 0, secondsAfter: 90 },
    });
    expect(describeRule(rule)).toBe(
      "mixed [info] (disabled) Trigger in(51)|code 77|GSensor(16) devices 0012345678|TRK-*, no cooldown, " +
        "stale after 1 d 1 h 1 min 1 s, evidence ch3 -0 s/+1 min 30 s",
    );
  });

  it("says device, singular, for a single id or prefix", () => {
    const rule = ruleSchema.parse({
      id: "one",
      events: [12],
      devices: { prefixes: ["BUS"] },
      severity: "critical",
    });
    expect(describeRule(rule)).toBe("one [critical] DiskError(12) device BUS*, no cooldown");
  });
});
