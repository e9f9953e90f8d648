import { type Observation, observationSchema } from "@fleet-alerts/core";
import { describe, expect, it } from "vitest";
import { logObserver } from "../../packages/functions/src/observability.js";

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
  account: "main",
  alertId: "main:1004372:shock",
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
      body: { drivername: "Elif Weber", position: { lat: 47.5061, lng: 8.5076 }, vehicleid: "F-LY 6711" },
      sms: "CRITICAL GSensor - F-LY 6711 (Elif Weber) 22 Nov 05:45 UTC, at 47.5061,8.5076",
    };
    logObserver(logger).observe(observationSchema.parse(published));
    expect(lines).toEqual([
      { level: "info", message: "alert-published", attributes: { ...ids, severity: "critical" } },
    ]);
    const text = JSON.stringify(lines);
    for (const personal of ["Elif", "47.5061", "F-LY"]) expect(text).not.toContain(personal);
  });

  it.each<[Observation, string]>([
    [{ type: "alert-failed", ...ids, reason: "InvalidParameter" }, "error"],
    [{ type: "evidence-failed", ...ids, reason: "timeout", receives: 5, final: true }, "error"],
    [{ type: "evidence-failed", ...ids, reason: "timeout", receives: 1, final: false }, "warn"],
    [{ type: "evidence-unavailable", ...ids }, "warn"],
    [{ type: "event-rejected", account: "main", issues: [{ path: "eventtime", message: "bad" }] }, "warn"],
    [{ type: "alert-suppressed", ...ids, suppressedSoFar: 2 }, "info"],
    [{ type: "offline-cancelled", ...ids, reason: "online-again" }, "info"],
  ])("log %o at the level its consequence calls for", (observation, level) => {
    const { lines, logger } = recordingLogger();
    logObserver(logger).observe(observation);
    const { type, ...attributes } = observation;
    expect(lines).toEqual([{ level, message: type, attributes }]);
  });
});
