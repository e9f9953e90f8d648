/**
 * The recorder audit of a 1,000-device account (issue 31): device-cloud calls a day and USD a month.
 * Measured on the simulator: a day of a sample fleet run, then audited by core's runRecorderAudit
 * (the real client, the GPS walk, the retention probes; alerts and items kept in memory, their writes
 * counted); the calls scale per device, so the sample's are scaled to 1,000. Priced like the other
 * sections (aws-prices.ts, us-east-1): Lambda GB-s at the function's 256 MB for the run's CPU plus
 * an assumed wait on each call, its requests, and the DynamoDB writes and reads per device.
 */
import { performance } from "node:perf_hooks";
import { DeviceCloudClient } from "@fleet-alerts/core/devicecloud";
import { DEFAULT_RECORDER_AUDIT, runRecorderAudit } from "@fleet-alerts/core/recorder";
import { start } from "@fleet-alerts/simulator";
import { FakeRecorderHealth, fakePollerDependencies } from "../../test/support/fakes/index.js";
import { AWS_PRICES } from "./aws-prices.js";

const SAMPLE_DEVICES = 100;
export const AUDITED_DEVICES = 1_000;
const DAY_MS = 86_400_000;
const DAY_START = Date.parse("2026-01-04T00:00:00Z");

/** Assumptions: stated, not measured. */
export const AUDIT_SCALE = {
  /** The vendor's answer time per call, which a sequential run waits through (billed as duration). */
  callLatencyMs: 200,
  /** infra/recorder-audit.ts. */
  memoryGb: 0.25,
  /** A device's card estimate is refreshed weekly (RETENTION_REFRESH_MS). */
  retentionRefreshDays: 7,
  /** An hourly schedule: runs with nothing owed read the cursor and stop (about 100 ms billed). */
  idleRunsPerDay: 24,
  idleRunMs: 100,
  daysPerMonth: 30,
} as const;

export interface RecorderAuditFigures {
  sampleDevices: number;
  /** Per audited day of AUDITED_DEVICES. */
  callsPerDay: number;
  callsByEndpoint: Record<string, number>;
  cpuMsPerDevice: number;
  runsPerDay: number;
  usdPerMonth: number;
  lines: { item: string; usd: number }[];
}

export async function measureRecorderAudit(): Promise<RecorderAuditFigures> {
  const simulator = await start({
    seed: 31,
    devices: SAMPLE_DEVICES,
    historyHours: 1,
    clock: { start: new Date(DAY_START - 3_600_000) },
  });
  try {
    simulator.control.advance(DAY_START + DAY_MS + 36 * 60_000 - simulator.control.now().getTime());
    const client = new DeviceCloudClient({
      baseUrl: simulator.url,
      credentials: { username: "demo", password: "demo" },
    });
    const fakes = fakePollerDependencies(0);
    const deps = {
      ...fakes.deps,
      client,
      health: new FakeRecorderHealth(),
      now: () => simulator.control.now().getTime(),
    };
    const settings = {
      account: "bench",
      fleetTimeZone: "UTC",
      audit: { ...DEFAULT_RECORDER_AUDIT, callsPerRun: 100_000 },
      utcOffsetMinutes: 0,
      speedUnit: "km/h" as const,
    };
    simulator.control.resetRequests();
    const cpuBefore = process.cpuUsage();
    const began = performance.now();
    await runRecorderAudit(settings, deps, Number.POSITIVE_INFINITY);
    const cpu = process.cpuUsage(cpuBefore);
    const wallMs = performance.now() - began;
    const byEndpoint: Record<string, number> = {};
    for (const request of simulator.control.requests) {
      const endpoint = String(request.endpoint);
      byEndpoint[endpoint] = (byEndpoint[endpoint] ?? 0) + 1;
    }
    const estimated = fakes.observations.filter((line) => line.type === "retention-estimated").length;
    // The process's CPU, simulator included: at most the run's wall time.
    return price(byEndpoint, estimated, Math.min(wallMs, (cpu.user + cpu.system) / 1000), deps.health);
  } finally {
    await simulator.close();
  }
}

function price(
  sampleCalls: Record<string, number>,
  estimated: number,
  cpuMs: number,
  health: FakeRecorderHealth,
): RecorderAuditFigures {
  const scale = AUDITED_DEVICES / SAMPLE_DEVICES;
  const maps = sampleCalls.record ?? 0;
  const gps = sampleCalls.gps ?? 0;
  // One map per device heard in the day; the others are retention probes: the sample's first audit
  // estimated every card, a day of the steady state refreshes a seventh of them.
  const auditedMaps = health.audits.filter((entry) => entry.status !== "not-reporting").length;
  const retentionMaps = Math.max(0, maps - auditedMaps);
  const perDay = {
    record: (auditedMaps + retentionMaps / AUDIT_SCALE.retentionRefreshDays) * scale,
    gps: gps * scale,
  };
  const deviceCalls = perDay.record + perDay.gps;
  const runsPerDay = Math.ceil(deviceCalls / DEFAULT_RECORDER_AUDIT.callsPerRun);
  const callsPerDay = deviceCalls + runsPerDay;
  const cpuMsPerDevice = cpuMs / SAMPLE_DEVICES;
  const busyMs = callsPerDay * AUDIT_SCALE.callLatencyMs + cpuMsPerDevice * AUDITED_DEVICES;
  const idleMs = AUDIT_SCALE.idleRunsPerDay * AUDIT_SCALE.idleRunMs;
  const month = AUDIT_SCALE.daysPerMonth;
  const gbSeconds = ((busyMs + idleMs) / 1000) * AUDIT_SCALE.memoryGb * month;
  // Per device and day: its item (1 write) and the cursor past it (1 write), the estimate a week's
  // share, and the item read before it; per run: the cursor read.
  const writes =
    (2 + estimated / SAMPLE_DEVICES / AUDIT_SCALE.retentionRefreshDays) * AUDITED_DEVICES * month;
  const reads = (AUDITED_DEVICES + AUDIT_SCALE.idleRunsPerDay) * month;
  const lines = [
    { item: "Lambda duration (GB-s)", usd: gbSeconds * AWS_PRICES.lambda.armGbSecond.usd },
    { item: "Lambda requests", usd: AUDIT_SCALE.idleRunsPerDay * month * AWS_PRICES.lambda.request.usd },
    { item: "DynamoDB writes", usd: writes * AWS_PRICES.dynamodb.writeRequestUnit.usd },
    { item: "DynamoDB reads", usd: reads * AWS_PRICES.dynamodb.readRequestUnit.usd },
  ];
  return {
    sampleDevices: SAMPLE_DEVICES,
    callsPerDay: Math.round(callsPerDay),
    callsByEndpoint: { alllist: runsPerDay, record: Math.round(perDay.record), gps: Math.round(perDay.gps) },
    cpuMsPerDevice: Math.round(cpuMsPerDevice * 100) / 100,
    runsPerDay,
    usdPerMonth: lines.reduce((sum, line) => sum + line.usd, 0),
    lines,
  };
}

/** Section 8: measures, prints the figures and judges the target (bench.ts's `judge`). */
export async function reportRecorderAudit(
  judge: (section: string, figure: string, target: string, met: boolean) => string,
): Promise<RecorderAuditFigures> {
  console.log(
    `\n8. Recorder audit, an account of ${AUDITED_DEVICES.toLocaleString("en")} devices (a simulated day, scaled)`,
  );
  const figures = await measureRecorderAudit();
  const costs = figures.lines.map((line) => `${line.item} ${line.usd.toFixed(3)}`).join(", ");
  const usd = `${figures.usdPerMonth.toFixed(2)} USD a month`;
  console.log(
    `   ${figures.callsPerDay.toLocaleString("en")} device-cloud calls a day ${JSON.stringify(figures.callsByEndpoint)} in ${figures.runsPerDay} run(s); ${costs}: ${usd}   ${judge("Recorder audit", usd, "<= 1 USD a month", figures.usdPerMonth <= 1)}`,
  );
  return figures;
}
