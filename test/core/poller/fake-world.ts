import type { DeviceEvent, FleetDevice } from "@fleet-alerts/core/devicecloud";
import { type AccountSettings, type PollerDependencies, pollAccount } from "@fleet-alerts/core/poller";
import { type RuleInput, ruleSchema } from "@fleet-alerts/core/rules";
import { fakePollerDependencies } from "../../support/fakes/index.js";

// One account's poller over in-memory ports, with a backlog of every kind of event its rules handle.

export const NOW = Date.parse("2026-01-05T12:00:00Z");
export const ACCOUNT = "east";
export const START = 1_000n;
const RULES: RuleInput[] = [
  {
    id: "speed",
    events: [13],
    severity: "warning",
    cooldownSeconds: 600,
    evidence: { channels: [1], secondsBefore: 5, secondsAfter: 5 },
  },
  { id: "shock", events: [16], severity: "critical", staleAfterSeconds: 1800 },
  { id: "offline", events: [3], severity: "info", offlineForMinutes: 5 },
  { id: "disk", events: [12], severity: "critical" },
];
export const SETTINGS: AccountSettings = {
  account: ACCOUNT,
  rules: RULES.map((rule) => ruleSchema.parse(rule)),
  fleetTimeZone: "Europe/Berlin",
  gps: { speedUnit: "km/h", budgetMs: 1_000 },
};
const CODES = [13, 13, 16, 3, 0, 12, 13];

/** `count` events after START over the last hour, on four devices, of every kind the rules handle. */
export function events(count: number): DeviceEvent[] {
  return Array.from({ length: count }, (_, index) => ({
    serialno: START + BigInt(index + 1),
    deviceid: `D${index % 4}`,
    appdevid: CODES[index % CODES.length] as number,
    eventtime: new Date(NOW - 3_600_000 + index * 13_000).toISOString(),
  }));
}

/** A poller over fakes whose cursor is at START, with `count` events after it, in chunks of 100. */
export function world(count = 250) {
  const fakes = fakePollerDependencies(NOW);
  // 250 events cross two chunk boundaries.
  (fakes.deps as PollerDependencies).chunkEvents = 100;
  fakes.deps.client.events.push(...events(count));
  fakes.deps.client.devices = [{ deviceid: "D1", vehicleid: "B-AB 123", channel: 2 } as FleetDevice];
  void fakes.deps.cursors.advance(ACCOUNT, undefined, START, NOW, 0);
  return fakes;
}

export const poll = (deps: PollerDependencies, deadlineMs = Number.POSITIVE_INFINITY) =>
  pollAccount(SETTINGS, deps, { deadlineMs });

/** What a run left behind, to compare runs by. */
export async function outcome({ deps }: ReturnType<typeof world>) {
  return {
    published: deps.publisher.acceptedIds().sort(),
    records: deps.alerts.all().map((record) => `${record.alertId} ${record.status}`),
    // A replay sends an alert's jobs again if it crashed before remembering them: the evidence
    // function stores its evidence once all the same (an SQS consumer takes any job twice).
    evidence: [...new Set(deps.evidenceQueue.jobs<{ alertId: string }>().map((job) => job.alertId))].sort(),
    // A replay sends an Offline check again if its step did not finish: the confirmation takes it once.
    offlineChecks: [...new Set(deps.confirmQueue.sent.map((message) => message.body))].sort(),
    states: await deps.states.loadAll(ACCOUNT),
    cursor: await deps.cursors.read(ACCOUNT),
  };
}
