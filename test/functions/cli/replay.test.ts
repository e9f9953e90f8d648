import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AlertStore } from "@fleet-alerts/core/alerts";
import type { RuleInput } from "@fleet-alerts/core/rules";
import { type SimEvent, type Simulator, start } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pollWithClock, startPipeline } from "../../core/poller/pipeline.js";
import { deviceCloudEnv, fleetAlerts } from "./run.js";

const HOUR = 3_600_000;

/** Rules whose decisions the test can compute on its own: a cooldown, none, Offline, a device filter. */
function rulesFor(doorDevice: string): RuleInput[] {
  return [
    {
      id: "speed",
      events: ["OverSpeed"],
      severity: "warning",
      cooldownSeconds: 300,
      staleAfterSeconds: 3600,
    },
    { id: "shock", events: [16], severity: "critical" },
    { id: "offline", events: [3], severity: "warning", offlineForMinutes: 10, staleAfterSeconds: 3600 },
    { id: "door", events: [8], severity: "info", cooldownSeconds: 600, devices: { ids: [doorDevice] } },
  ];
}

/**
 * What those rules decide, worked out here from the simulator's own event log and the rules'
 * documented meaning, without the evaluator: `serialno rule kind`, in serial order.
 */
function expectedDecisions(events: readonly SimEvent[], doorDevice: string, nowMs: number): string[] {
  const lastAlertMs = new Map<string, number>();
  const decisions: string[] = [];
  const cooldown = (rule: string, event: SimEvent, seconds: number) => {
    const key = `${rule}/${event.deviceid}`;
    const eventMs = Date.parse(event.eventtime);
    const last = lastAlertMs.get(key);
    if (last !== undefined && Math.abs(eventMs - last) < seconds * 1000) return "suppressed";
    lastAlertMs.set(key, eventMs);
    return "alert";
  };
  const stale = (event: SimEvent) => Math.floor((nowMs - Date.parse(event.eventtime)) / 1000) > 3600;
  for (const event of events) {
    const decide = (rule: string, kind: string) => decisions.push(`${event.serialno} ${rule} ${kind}`);
    if (event.appdevid === 0) decide("offline", "cancel-offline");
    if (event.appdevid === 13) decide("speed", stale(event) ? "stale" : cooldown("speed", event, 300));
    if (event.appdevid === 16) decide("shock", "alert");
    if (event.appdevid === 3) decide("offline", stale(event) ? "stale" : "confirm-offline");
    if (event.appdevid === 8 && event.deviceid === doorDevice) decide("door", cooldown("door", event, 600));
  }
  return decisions;
}

interface ReplayJson {
  eventsRead: number;
  decisions: { serialno: string; rule: string; kind: string; deviceid: string; eventtime: string }[];
  totals: Record<string, Record<string, number>>;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cli-replay-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function rulesFile(rules: RuleInput[]): Promise<string> {
  const path = join(dir, `rules-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(path, JSON.stringify({ rules }));
  return path;
}

describe("fleet-alerts rules replay", () => {
  let simulator: Simulator;
  let doorDevice: string;
  let rules: string;
  // Two hours, the first of them older than the rules' one-hour staleness as of the clock's now.
  const from = "2026-01-04T22:00:00Z";
  const to = "2026-01-04T23:59:59Z";
  const now = "2026-01-05T00:00:00Z";
  const inPeriod = () =>
    simulator.control.events().filter((event) => {
      const second = Math.floor(Date.parse(event.eventtime) / 1000) * 1000;
      return second >= Date.parse(from) && second <= Date.parse(to);
    });

  beforeAll(async () => {
    simulator = await start({ seed: 3, devices: 6, historyHours: 3 });
    const doorEvents = simulator.control.events().filter((event) => event.appdevid === 8);
    doorDevice = doorEvents[0]?.deviceid ?? "none";
    rules = await rulesFile(rulesFor(doorDevice));
  });
  afterAll(() => simulator.close());

  const replay = (...args: string[]) =>
    fleetAlerts(["rules", "replay", "--from", from, "--to", to, "--now", now, "--rules", rules, ...args], {
      env: deviceCloudEnv(simulator),
    });

  it("prints one line per decision and the totals, matching the simulator's ground truth", async () => {
    const expected = expectedDecisions(inPeriod(), doorDevice, Date.parse(now));
    // The period has every kind of decision, or the comparison would prove little.
    for (const kind of ["alert", "suppressed", "stale", "confirm-offline", "cancel-offline"])
      expect(expected.some((line) => line.endsWith(` ${kind}`))).toBe(true);

    const run = await replay();
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe(
      `Replay of ${inPeriod().length} events from 2026-01-04T22:00:00.000Z to 2026-01-04T23:59:59.000Z, ` +
        `as of 2026-01-05T00:00:00.000Z: ${expected.length} decisions`,
    );
    expect(lines[1]).toMatch(/^SERIALNO +EVENT TIME +DEVICE +EVENT +RULE +DECISION +DETAIL$/);
    const rows = lines.slice(2, 2 + expected.length).map((line) => line.split(/ {2,}/));
    expect(rows.map(([serialno, , , , rule, kind]) => `${serialno} ${rule} ${kind}`)).toEqual(expected);
    const events = new Map(inPeriod().map((event) => [event.serialno.toString(), event]));
    for (const [serialno, eventtime, deviceid] of rows) {
      expect(events.get(serialno ?? "")).toMatchObject({ eventtime, deviceid });
    }

    const totals = lines.slice(2 + expected.length + 1).filter((line) => line !== "");
    expect(totals[0]).toMatch(/^RULE +ALERT +SUPPRESSED +STALE +CONFIRM-OFFLINE +CANCEL-OFFLINE$/);
    const counted = (rule: string, kind: string) =>
      expected.filter((line) => line.endsWith(` ${rule} ${kind}`)).length;
    expect(totals.slice(1).map((line) => line.split(/ +/))).toEqual(
      ["speed", "shock", "offline", "door"].map((rule) => [
        rule,
        ...["alert", "suppressed", "stale", "confirm-offline", "cancel-offline"].map((kind) =>
          String(counted(rule, kind)),
        ),
      ]),
    );
  });

  it("reads every page of a capped, reversed, duplicating service and makes no other request", async () => {
    simulator.control.setHarsh({ maxResults: 40, order: "desc", duplicateRate: 0.3 });
    simulator.control.resetRequests();
    try {
      const run = await replay("--json");
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as ReplayJson;
      expect(report.eventsRead).toBe(inPeriod().length);
      expect(
        report.decisions.map((decision) => `${decision.serialno} ${decision.rule} ${decision.kind}`),
      ).toEqual(expectedDecisions(inPeriod(), doorDevice, Date.parse(now)));
      const requests = simulator.control.requests;
      expect(requests.length).toBeGreaterThan(inPeriod().length / 40);
      expect(new Set(requests.map((request) => request.endpoint))).toEqual(new Set(["eventquery"]));
    } finally {
      simulator.control.setHarsh({});
    }
  });

  it("refuses an invalid period, an invalid rules file and a missing password with exit code 1", async () => {
    const env = deviceCloudEnv(simulator);
    const [backwards, badRules, noPassword] = await Promise.all([
      fleetAlerts(["rules", "replay", "--from", "2026-01-05", "--to", "2026-01-04T12:00", "--rules", rules], {
        env,
      }),
      fleetAlerts(["rules", "replay", "--from", from, "--to", to, "--rules", join(dir, "missing.json")], {
        env,
      }),
      fleetAlerts(["rules", "replay", "--from", from, "--to", to], {
        env: { ...env, DEVICE_CLOUD_PASSWORD: undefined },
      }),
    ]);
    expect(backwards).toMatchObject({ code: 1, stderr: "fleet-alerts: --from must not be after --to\n" });
    expect(badRules.code).toBe(1);
    expect(badRules.stderr).toContain("(file): cannot be read: no such file");
    expect(noPassword).toMatchObject({
      code: 1,
      stdout: "",
      stderr:
        "fleet-alerts: no password: set DEVICE_CLOUD_PASSWORD, or run in a terminal to be asked for it\n",
    });
  });
});

describe("fleet-alerts rules replay against the poller", () => {
  it("decides the alerts and stale records the poller records for the same events", async () => {
    // No history: every event of the log happens after the clock's start, so the period from the
    // start to now holds exactly the events the poller reads from serial 0.
    const pipeline = await startPipeline({
      simulator: { seed: 8, devices: 6, historyHours: 0 },
      rules: rulesFor("0000000000"),
      accounts: [{ id: "north", startSerialno: 0n }],
    });
    try {
      const { simulator, emulators } = pipeline;
      const from = simulator.control.now().toISOString();
      expect(await pollWithClock(pipeline)).toMatchObject({ outcome: "started" });
      simulator.control.advance(2 * HOUR);
      const now = simulator.control.now().toISOString();
      const summary = await pollWithClock(pipeline);
      expect(summary.outcome).toBe("caught-up");

      const run = await fleetAlerts(
        [
          "rules",
          "replay",
          "--from",
          from,
          "--to",
          now,
          "--now",
          now,
          "--rules",
          await rulesFile(rulesFor("0000000000")),
          "--json",
        ],
        { env: deviceCloudEnv(simulator) },
      );
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as ReplayJson;
      expect(report.eventsRead).toBe(summary.eventsRead);
      const replayed = (kind: string) =>
        report.decisions
          .filter((decision) => decision.kind === kind)
          .map((decision) => `${decision.serialno}/${decision.rule}`)
          .sort();

      const records = await new AlertStore({
        documents: emulators.clients.documents,
        tableName: emulators.tableName,
      }).inWindow("north", 0n, 10n ** 30n);
      const recorded = (stale: boolean) =>
        records
          .filter((record) => (record.status === "stale") === stale)
          .map((record) => `${record.serialno}/${record.ruleId}`)
          .sort();
      expect(replayed("alert").length).toBeGreaterThan(0);
      expect(replayed("stale").length).toBeGreaterThan(0);
      expect(replayed("alert")).toEqual(recorded(false));
      expect(replayed("stale")).toEqual(recorded(true));
      expect(replayed("suppressed").length).toBe(summary.suppressed);
      expect(replayed("confirm-offline").length).toBe(summary.offlineChecks);
    } finally {
      await pipeline.close();
    }
  });
});
