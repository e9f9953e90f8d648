import { type Observation, observationSchema } from "@fleet-alerts/core";
import type { Context } from "aws-lambda";
import { describe, expect, it, vi } from "vitest";
import { lambdaHandler, logger, logObserver } from "../../packages/functions/src/observability.js";

function recordingLogger() {
  const lines: { level: string; message: string; attributes: Record<string, unknown> }[] = [];
  const at =
    (level: string) =>
    (message: string, attributes: Record<string, unknown>): void => {
      lines.push({ level, message, attributes });
    };
  return { lines, logger: { info: at("info"), warn: at("warn"), error: at("error") } };
}

const ids = {
  account: "east",
  alertId: "east:1004372:shock",
  serialno: "1004372",
  rule: "shock",
  deviceid: "0091251431",
};

describe("observations in Lambda", () => {
  it("log a published alert by its ids and decision, never the body subscribers get", () => {
    const { lines, logger } = recordingLogger();
    const published: Observation = {
      type: "alert-published",
      ...ids,
      severity: "critical",
      body: {
        kind: "alert",
        alertId: ids.alertId,
        account: "east",
        ruleId: "shock",
        severity: "critical",
        eventCode: 16,
        eventName: "GSensor",
        deviceid: ids.deviceid,
        serialno: ids.serialno,
        eventtime: "2026-11-22T05:45:00Z",
        vehicleid: "F-LY 6711",
        drivername: "Elif Weber",
        position: {
          lat: 47.5061,
          lng: 8.5076,
          source: "track",
          url: "https://osm.example",
          fixtime: "2026-11-22T05:44:58.000Z",
        },
        speedKmh: 37,
        speedSource: "track",
        headingDeg: 90,
        speedLimitKmh: null,
        evidence: null,
        suppressedBefore: 0,
        confirmedOfflineMinutes: null,
      },
      sms: "CRITICAL GSensor - F-LY 6711 (Elif Weber) 22 Nov 05:45 UTC, at 47.5061,8.5076",
      link: "https://alerts.example.com/i/AAAAAAAAAAAAAAAAAAAAAA",
      groups: ["everyone"],
      held: [],
      recipients: { email: 2, sms: 1, smsCapped: 0, targets: ["erp"] },
    };
    logObserver(logger).observe(observationSchema.parse(published));
    expect(lines).toEqual([
      {
        level: "info",
        message: "alert-published",
        // Group and target names are configuration, and counts no one's address: where the alert
        // went, and to how many, is logged.
        attributes: {
          ...ids,
          severity: "critical",
          groups: ["everyone"],
          held: [],
          recipients: { email: 2, sms: 1, smsCapped: 0, targets: ["erp"] },
        },
      },
    ]);
    const text = JSON.stringify(lines);
    for (const personal of ["Elif", "47.5061", "F-LY", "/i/"]) expect(text).not.toContain(personal);
  });

  it("log an alert's and an escalation's link nowhere: the token in it opens the alert", () => {
    const { lines, logger } = recordingLogger();
    const link = "https://alerts.example.com/i/AAAAAAAAAAAAAAAAAAAAAA";
    const escalated: Observation = {
      type: "alert-escalated",
      ...ids,
      level: 1,
      levels: 2,
      unacknowledgedSeconds: 600,
      link,
    };
    logObserver(logger).observe(escalated);
    expect(lines).toEqual([
      {
        level: "info",
        message: "alert-escalated",
        attributes: { ...ids, level: 1, levels: 2, unacknowledgedSeconds: 600 },
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain("/i/");
  });

  it.each<[Observation, string]>([
    [{ type: "alert-failed", ...ids, reason: "InvalidParameter" }, "error"],
    [{ type: "evidence-failed", ...ids, reason: "timeout", receives: 5, final: true }, "error"],
    [{ type: "evidence-failed", ...ids, reason: "timeout", receives: 1, final: false }, "warn"],
    [
      {
        type: "evidence-unavailable",
        ...ids,
        bucket: "evidence",
        bag: { prefix: "evidence/x/", report: "evidence/x/report.html", timestamp: "off" },
        footage: "not-recorded",
      },
      "warn",
    ],
    [{ type: "evidence-timestamp-failed", ...ids, reason: "timeout", attempt: 8, final: true }, "error"],
    [{ type: "evidence-timestamp-failed", ...ids, reason: "timeout", attempt: 1, final: false }, "warn"],
    [{ type: "event-rejected", account: "east", issues: [{ path: "eventtime", message: "bad" }] }, "warn"],
    [{ type: "alert-suppressed", ...ids, suppressedSoFar: 2 }, "info"],
    [{ type: "offline-cancelled", ...ids, reason: "online-again" }, "info"],
    // A stale summary told to a group: counts only, no alert listed and no link (those are in the email).
    [
      {
        type: "stale-summary-sent",
        account: "east",
        summary: 3,
        group: "safety",
        alerts: 31,
        byRule: { shock: 25, speed: 6 },
        recipients: 2,
      },
      "info",
    ],
  ])("log %o at the level its consequence calls for", (observation, level) => {
    const { lines, logger } = recordingLogger();
    logObserver(logger).observe(observation);
    const { type, ...attributes } = observation;
    expect(lines).toEqual([{ level, message: type, attributes }]);
  });
});

describe("handlers in Lambda", () => {
  it("put the Lambda context and the keys of the record in hand on every line, and drop those keys after the invocation", async () => {
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    logger.setLogLevel("INFO");
    try {
      const handler = lambdaHandler(async (_event: unknown, _context: Partial<Context>) => {
        logger.appendKeys({ account: "east", alertId: "east:7:shock", serialno: "7" });
        logger.info("working");
      });
      await handler({}, { awsRequestId: "request-1", functionName: "fleet-alerts-evidence" });
      logger.info("between invocations");
    } finally {
      logger.setLogLevel("SILENT");
      write.mockRestore();
    }
    const [during, after] = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(during).toMatchObject({
      message: "working",
      function_request_id: "request-1",
      function_name: "fleet-alerts-evidence",
      account: "east",
      alertId: "east:7:shock",
      serialno: "7",
    });
    expect(after).toMatchObject({ message: "between invocations" });
    expect(after).not.toHaveProperty("alertId");
  });
});
