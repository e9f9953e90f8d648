import { DigestTally, recorderSummary } from "@fleet-alerts/core/notices";
import { groupSchema } from "@fleet-alerts/core/routing";
import { describe, expect, it } from "vitest";
import { digestText } from "../../../packages/core/src/notices/digest-text.js";
import { FakeRecorderHealth } from "../../support/fakes/index.js";

const NOW = Date.parse("2026-01-05T07:30:00Z");
const DAY = 86_400_000;
const PERIOD = Date.parse("2026-01-04T00:00:00Z");

/** A fleet of the audit's results: each device's status, last heard so many days ago, its gap minutes. */
async function fleet() {
  const health = new FakeRecorderHealth();
  const audit = (
    status: "recording" | "gaps" | "parked" | "not-reporting",
    heardDaysAgo: number,
    gapMinutes = 0,
  ) => ({
    periodStartMs: PERIOD,
    status,
    lastHeardMs: NOW - heardDaysAgo * DAY,
    recordedMinutes: status === "recording" ? 300 : 0,
    gapMinutes,
    auditedAtMs: NOW - 6 * 3_600_000,
  });
  await health.saveAudit("north", "N1", { ...audit("recording", 0.5), vehicleid: "B-AB 1" });
  await health.saveAudit("north", "N2", { ...audit("recording", 0.6), vehicleid: "B-AB 2" });
  await health.saveAudit("north", "N3", { ...audit("gaps", 0.4, 20), vehicleid: "B-AB 3\n<b>forged</b>" });
  await health.saveAudit("north", "N4", { ...audit("not-reporting", 5), vehicleid: "B-AB 4" });
  await health.saveAudit("north", "N5", audit("parked", 1));
  // Audited a week ago and not since: gone from the fleet.
  await health.saveAudit("north", "N6", { ...audit("recording", 8), auditedAtMs: NOW - 7 * DAY });
  // Only its retention known: never audited.
  await health.saveRetention("north", "N7", { days: 9, atLeast: false }, NOW);
  await health.saveAudit("south", "S1", { ...audit("gaps", 0.2, 45), vehicleid: "S-1" });
  return { health, accounts: ["north", "south"], offlineDays: 3 };
}

const group = (select: object = {}) =>
  groupSchema.parse({ name: "depot", email: ["depot@example.com"], select, digest: { at: "07:30" } });

describe("the digest's recorder summary", () => {
  it("counts the devices the group selects as the audit last found them, and lists those that need someone", async () => {
    const source = await fleet();
    expect(await recorderSummary(group(), source, NOW)).toEqual({
      offlineDays: 3,
      recording: 2,
      withGaps: 2,
      offline: 1,
      parked: 1,
      gapsListed: [
        { name: "vehicle B-AB 3 <b>forged</b> (device N3)", minutes: 20 },
        { name: "vehicle S-1 (device S1)", minutes: 45 },
      ],
      offlineListed: [{ name: "vehicle B-AB 4 (device N4)", lastHeardMs: NOW - 5 * DAY }],
    });
    // A group selecting one account, or devices, or only critical alerts (a not-recording alert is a warning).
    expect(await recorderSummary(group({ accounts: ["south"] }), source, NOW)).toMatchObject({
      recording: 0,
      withGaps: 1,
    });
    expect(await recorderSummary(group({ devices: ["N1", "N4"] }), source, NOW)).toMatchObject({
      recording: 1,
      offline: 1,
      withGaps: 0,
    });
    expect(await recorderSummary(group({ minSeverity: "critical" }), source, NOW)).toMatchObject({
      recording: 0,
      withGaps: 0,
      offline: 0,
      parked: 0,
    });
  });

  it("reads in the digest email and its JSON body, one line per device whatever the vehicle's name", async () => {
    const recorder = await recorderSummary(group(), await fleet(), NOW);
    const text = digestText({
      group: "depot",
      zone: "Europe/Berlin",
      date: "2026-01-05",
      fromMs: NOW - DAY,
      toMs: NOW,
      model: new DigestTally().model(),
      links: [],
      recorder,
    });
    expect(text.email.split("\n").slice(-7)).toEqual([
      "",
      "Recorders (last audit): 2 devices recording normally, 2 with gaps, 1 offline for more than 3 days, 1 parked.",
      "Driven without video:",
      "- vehicle B-AB 3 <b>forged</b> (device N3): 20 min without video",
      "- vehicle S-1 (device S1): 45 min without video",
      "Offline for more than 3 days:",
      "- vehicle B-AB 4 (device N4): last heard 2025-12-31 08:30",
    ]);
    expect(text.body).toMatchObject({
      recorders: { recording: 2, withGaps: 2, offline: 1, parked: 1, offlineDays: 3 },
    });
  });

  it("says so when the audit has no results yet, and is left out where the stage runs none", () => {
    const input = {
      group: "depot",
      zone: "UTC",
      date: "2026-01-05",
      fromMs: NOW - DAY,
      toMs: NOW,
      model: new DigestTally().model(),
      links: [],
    };
    const empty = {
      offlineDays: 3,
      recording: 0,
      withGaps: 0,
      offline: 0,
      parked: 0,
      gapsListed: [],
      offlineListed: [],
    };
    expect(digestText({ ...input, recorder: empty }).email).toMatch(/\nRecorders: no audit results yet\.$/);
    expect(digestText(input).email).not.toContain("Recorders");
    expect(digestText(input).body).not.toHaveProperty("recorders");
  });
});
