import type { Observation } from "@fleet-alerts/core";
import { describe, expect, it } from "vitest";
import { humanView } from "../../packages/local/src/human-view.js";
import { jsonLine } from "../../packages/local/src/json-view.js";
import { emptyTotals, type LocalLine, tally } from "../../packages/local/src/report.js";

const gap: Observation = {
  type: "recorder-gap",
  account: "north",
  alertId: "north:9000000000000000000000000000000000000001:not-recording",
  serialno: "9000000000000000000000000000000000000001",
  rule: "not-recording",
  deviceid: "0011778082",
  from: "2026-01-04T07:51:00.000Z",
  to: "2026-01-04T08:11:00.000Z",
  minutes: 20,
  kind: "gps-only",
};
const recorderLines: LocalLine[] = [
  gap,
  { type: "retention-estimated", account: "north", deviceid: "0011778082", days: 13, atLeast: false },
  { type: "retention-estimated", account: "north", deviceid: "0022", days: 90, atLeast: true },
  { type: "recorder-audit-failed", account: "north", deviceid: "0033", reason: "record map: HTTP 500" },
  {
    type: "recorder-audit-summary",
    account: "north",
    period: "2026-01-04T00:00:00.000Z",
    outcome: "budget",
    devicesAudited: 40,
    gaps: 1,
    failures: 1,
    retentionsEstimated: 2,
    calls: 997,
  },
];

describe("the local mode's recorder-health lines", () => {
  it("shows each as a line of its own", () => {
    expect(recorderLines.map((line) => humanView(line, emptyTotals(), "t").print)).toEqual([
      "t NOT RECORDING device 0011778082: drove 20 min without video (gps-only) from 2026-01-04T07:51:00.000Z to 2026-01-04T08:11:00.000Z [north:9000000000000000000000000000000000000001:not-recording]",
      "t card retention of device 0011778082: about 13 day(s) of footage",
      "t card retention of device 0022: at least 90 day(s) of footage",
      "t recorder audit skipped device 0033: record map: HTTP 500",
      "t recorder audit north, period from 2026-01-04T00:00:00.000Z: 40 device(s) audited, 1 gap(s), 2 retention(s) estimated, 997 device-cloud call(s) (budget)",
    ]);
  });

  it("prints each with its type in --json and counts them", () => {
    expect(recorderLines.map((line) => JSON.parse(jsonLine(line) as string))).toEqual(recorderLines);
    const totals = recorderLines.reduce(tally, emptyTotals());
    expect(totals.observations).toMatchObject({
      "recorder-gap": 1,
      "retention-estimated": 2,
      "recorder-audit-failed": 1,
      "recorder-audit-summary": 1,
    });
    expect(totals.problems).toBe(0);
  });

  it("keeps a hostile device id from acting on the terminal", () => {
    const hostile = { ...gap, deviceid: "\u001b[2J\nforged line" } as LocalLine;
    const printed = humanView(hostile, emptyTotals(), "t").print ?? "";
    expect(printed).not.toContain("\u001b");
    expect(printed.split("\n")).toHaveLength(1);
  });
});
