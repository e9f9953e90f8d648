import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

// The metrics instance is created when the module loads, with the test environment's
// POWERTOOLS_METRICS_DISABLED; a fresh process shows what Lambda would print (CloudWatch EMF).
const SCRIPT = `
import { publishPollMetrics } from "./packages/functions/src/observability.ts";
publishPollMetrics({ account: "north", outcome: "caught-up", eventsRead: 12, alertsPublished: 3, alertsFailed: 0,
  suppressed: 2, stale: 1, rejected: 1, offlineChecks: 0, offlineCancelled: 0, evidenceJobs: 1,
  gpsLookups: 2, gpsLookupsFailed: 1, positionsFromEvent: 1, positionsFromTrack: 1, positionsLastKnown: 1,
  positionsUnknown: 0, lagSeconds: 7 }, 850);
`;

interface Emf {
  _aws: {
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [name: string]: unknown;
}

/** The EMF lines a script prints in a fresh process with metrics on, as Lambda would. */
async function emfLinesOf(script: string): Promise<Emf[]> {
  const { stdout } = await run("npx", ["tsx", "--eval", script], {
    env: { ...process.env, POWERTOOLS_METRICS_DISABLED: "false", POWERTOOLS_DEV: "false" },
  });
  return stdout
    .trim()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Emf);
}

describe("poll metrics", () => {
  it("are emitted as CloudWatch EMF, only the cursor lag per account", async () => {
    const lines = await emfLinesOf(SCRIPT);
    const names = (emf: Emf) => emf._aws.CloudWatchMetrics[0]?.Metrics.map((metric) => metric.Name) ?? [];
    const lag = lines.find((emf) => names(emf).includes("CursorLagSeconds"));
    const rest = lines.find((emf) => names(emf).includes("EventsRead"));
    // The lag alarm of each account needs its own series; nothing else grows with the accounts.
    expect(lag?._aws.CloudWatchMetrics[0]?.Dimensions[0]?.sort()).toEqual(["account", "service"]);
    expect(names(lag as Emf)).toEqual(["CursorLagSeconds"]);
    expect(lag).toMatchObject({ account: "north", CursorLagSeconds: 7 });
    expect(lag?._aws.CloudWatchMetrics[0]?.Metrics).toContainEqual({
      Name: "CursorLagSeconds",
      Unit: "Seconds",
    });
    const [directive] = rest?._aws.CloudWatchMetrics ?? [];
    expect(directive?.Namespace).toBe("FleetAlerts");
    expect(directive?.Dimensions).toEqual([["service"]]);
    expect(names(rest as Emf)).toHaveLength(14);
    expect(rest).toMatchObject({
      // A property of the line, for Logs Insights, not a dimension.
      account: "north",
      EventsRead: 12,
      AlertsPublished: 3,
      AlertsSuppressed: 2,
      EventsRejected: 1,
      RunTime: 850,
      GpsLookups: 2,
      GpsLookupsFailed: 1,
      PositionsFromEvent: 1,
      PositionsFromTrack: 1,
      PositionsLastKnown: 1,
      PositionsUnknown: 0,
    });
  });

  it("give a failed account's lag, the time since it last caught up, and none before it ever did", async () => {
    const script = `
import { publishFailedLags } from "./packages/functions/src/observability.ts";
publishFailedLags([
  { account: "north", error: new Error("down"), lagSeconds: 5400 },
  { account: "south", error: new Error("down") },
]);
`;
    const lines = await emfLinesOf(script);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ account: "north", CursorLagSeconds: 5400 });
    expect(lines[0]?._aws.CloudWatchMetrics[0]?.Dimensions[0]?.sort()).toEqual(["account", "service"]);
  });
});

describe("a fenced poll", () => {
  it("is counted as PollsFenced, its account a property of the line", async () => {
    const script = `
import { logObserver } from "./packages/functions/src/observability.ts";
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
logObserver(quiet).observe({ type: "poll-fenced", account: "north", epoch: 7, at: "publication-claim" });
`;
    const [line] = await emfLinesOf(script);
    expect(line?._aws.CloudWatchMetrics[0]?.Metrics).toEqual([{ Name: "PollsFenced", Unit: "Count" }]);
    expect(line?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([["service"]]);
    expect(line).toMatchObject({ account: "north", PollsFenced: 1 });
  });
});
