import type { Observation } from "@fleet-alerts/core";
import type { PollerDependencies } from "@fleet-alerts/core/poller";
import { FakeAlertPublisher, FakeAlertRecords, FakePublications } from "./alerts.js";
import { FakeAccountLease, FakeCursors } from "./cursor.js";
import { FakeDeviceCloud } from "./device-cloud.js";
import { FakeOfflineChecks } from "./offline.js";
import { FakeRejectedEvents, FakeRuleStates } from "./poller.js";
import { FakeJobQueue } from "./queue.js";
import { FakeRouter } from "./routing.js";
import { fakeSetAside } from "./set-aside.js";

export * from "./alerts.js";
export * from "./cursor.js";
export * from "./device-cloud.js";
export * from "./evidence.js";
export * from "./offline.js";
export * from "./poller.js";
export * from "./queue.js";
export * from "./routing.js";
export * from "./set-aside.js";

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * A poller's dependencies, every one in memory, with the observations it made, its clock, and what
 * it set aside and told ops.
 */
export function fakePollerDependencies(nowMs: number) {
  const clock = { nowMs };
  const observations: Observation[] = [];
  const observer = { observe: (observation: Observation) => void observations.push(observation) };
  const now = () => clock.nowMs;
  const setAside = fakeSetAside({ observer, logger: silent, now });
  const deps = {
    client: new FakeDeviceCloud(),
    cursors: new FakeCursors(),
    lock: new FakeAccountLease(),
    alerts: new FakeAlertRecords(),
    publications: new FakePublications(),
    states: new FakeRuleStates(),
    offlineChecks: new FakeOfflineChecks(),
    rejected: new FakeRejectedEvents(),
    publisher: new FakeAlertPublisher(),
    evidenceQueue: new FakeJobQueue(),
    confirmQueue: new FakeJobQueue(),
    router: new FakeRouter(),
    setAside: setAside.setAside,
    logger: silent,
    observer,
    now,
  } satisfies PollerDependencies;
  return { deps, observations, clock, setAside };
}
export * from "./recorder.js";
