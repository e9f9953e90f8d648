import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

// The metrics instance is created when the module loads, with the test environment's
// POWERTOOLS_METRICS_DISABLED; a fresh process shows what Lambda would print (CloudWatch EMF).
const SCRIPT = `
import { publishPollMetrics } from "./packages/functions/src/observability.ts";
publishPollMetrics({ account: "main", outcome: "caught-up", eventsRead: 12, alertsPublished: 3, alertsFailed: 0,
  suppressed: 2, stale: 1, rejected: 1, offlineChecks: 0, offlineCancelled: 0, evidenceJobs: 1,
  gpsLookups: 2, gpsLookupsFailed: 1, positionsFromEvent: 1, positionsFromTrack: 1, positionsLastKnown: 1,
  positionsUnknown: 0, lagSeconds: 7 }, 850);
`;

describe("poll metrics", () => {
  it("are emitted as CloudWatch EMF with an account dimension", async () => {
    const { stdout } = await run("npx", ["tsx", "--eval", SCRIPT], {
      env: { ...process.env, POWERTOOLS_METRICS_DISABLED: "false", POWERTOOLS_DEV: "false" },
    });
    const emf = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown> & {
      _aws: {
        CloudWatchMetrics: {
          Namespace: string;
          Dimensions: string[][];
          Metrics: { Name: string; Unit: string }[];
        }[];
      };
    };
    const [directive] = emf._aws.CloudWatchMetrics;
    expect(directive?.Namespace).toBe("FleetAlerts");
    expect(directive?.Dimensions[0]).toContain("account");
    expect(emf).toMatchObject({
      account: "main",
      EventsRead: 12,
      AlertsPublished: 3,
      AlertsSuppressed: 2,
      EventsRejected: 1,
      CursorLagSeconds: 7,
      RunTime: 850,
      GpsLookups: 2,
      GpsLookupsFailed: 1,
      PositionsFromEvent: 1,
      PositionsFromTrack: 1,
      PositionsLastKnown: 1,
      PositionsUnknown: 0,
    });
    expect(directive?.Metrics).toContainEqual({ Name: "CursorLagSeconds", Unit: "Seconds" });
  });
});
