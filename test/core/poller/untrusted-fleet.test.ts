import type { DeviceEvent, FleetDevice } from "@fleet-alerts/core/devicecloud";
import {
  type AccountSettings,
  type PollerDependencies,
  type PollStep,
  pollAccount,
} from "@fleet-alerts/core/poller";
import type { AlertRouter } from "@fleet-alerts/core/routing";
import { ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";
import { FAKE_ROUTE, FakeJobQueue, fakePollerDependencies } from "../../support/fakes/index.js";

// A fleet whose device cloud sends what a hostile but possible service would, among ordinary
// devices, over the in-memory ports: the job queues refuse exactly what SQS refuses
// (test/support/fakes/queue.ts), so a job carrying a raw U+FFFF would be refused here as there.

const NOW = Date.parse("2026-01-05T12:00:00Z");
const ACCOUNT = "east";
const START = 1_000n;
const SETTINGS: AccountSettings = {
  account: ACCOUNT,
  rules: [
    ruleSchema.parse({
      id: "crash",
      events: ["GSensor"],
      severity: "critical",
      evidence: { channels: [1], secondsBefore: 5, secondsAfter: 5 },
      escalate: { after: "10m", levels: 1 },
    }),
  ],
  fleetTimeZone: "Europe/Berlin",
  gps: { speedUnit: "km/h", budgetMs: 0 },
};

const HOSTILE: Pick<FleetDevice, "deviceid" | "vehicleid" | "drivername">[] = [
  { deviceid: "D-ffff", vehicleid: "TRK\uFFFE1", drivername: "Ada\uFFFFLovelace" },
  { deviceid: "D-emoji", vehicleid: "🚚 Truck", drivername: "👩‍✈️ Grace" },
  { deviceid: "..", vehicleid: "<!channel> [Open](https://evil.example)", drivername: "Zoë\r\nForged: line" },
  { deviceid: "D-plain-1", vehicleid: "B-AB 123", drivername: "Ada Lovelace" },
  { deviceid: "D-plain-2", vehicleid: "B-CD 456", drivername: "" },
];

function device(identity: (typeof HOSTILE)[number]): FleetDevice {
  return {
    ...identity,
    status: 1,
    nmea: "",
    updatetime: new Date(NOW).toISOString(),
    channel: 4,
    gpsdata: undefined,
  };
}

/** Two G-sensor events of each device, the devices taking turns. */
function crashes(): DeviceEvent[] {
  return Array.from({ length: HOSTILE.length * 2 }, (_, index) => ({
    serialno: START + BigInt(index + 1),
    deviceid: (HOSTILE[index % HOSTILE.length] as FleetDevice).deviceid,
    appdevid: 16,
    eventtime: new Date(NOW - 600_000 + index * 1_000).toISOString(),
  }));
}
const LAST = START + BigInt(HOSTILE.length * 2);

/** Every alert routed to one email recipient and one webhook target. */
const toHook: AlertRouter = { route: async () => ({ ...structuredClone(FAKE_ROUTE), targets: ["hook"] }) };

function world(evidenceQueue = new FakeJobQueue()) {
  const fakes = fakePollerDependencies(NOW);
  const deps: PollerDependencies = {
    ...fakes.deps,
    evidenceQueue,
    webhookQueue: new FakeJobQueue(),
    escalationQueue: new FakeJobQueue(),
    router: toHook,
  };
  fakes.deps.client.events.push(...crashes());
  fakes.deps.client.devices = HOSTILE.map(device);
  void fakes.deps.cursors.advance(ACCOUNT, undefined, START, NOW, 0);
  return { ...fakes, deps, fake: fakes.deps, queues: queuesOf(deps) };
}

function queuesOf(deps: PollerDependencies) {
  return {
    evidence: deps.evidenceQueue as FakeJobQueue,
    webhook: deps.webhookQueue as FakeJobQueue,
    escalation: deps.escalationQueue as FakeJobQueue,
  };
}

const alertIdsOf = (jobs: { alertId: string }[]) => jobs.map((job) => job.alertId).sort();
const everyAlert = crashes()
  .map((event) => `${ACCOUNT}:${event.serialno}:crash`)
  .sort();

describe("a fleet whose names and ids are hostile, over ports as strict as AWS", () => {
  it("sends every alert of every device once, queues its evidence, webhook and escalation jobs, and moves the cursor", async () => {
    const { deps, queues, observations, setAside } = world();
    const summary = await pollAccount(SETTINGS, deps, { deadlineMs: Number.POSITIVE_INFINITY });

    expect(summary).toMatchObject({
      outcome: "caught-up",
      alertsPublished: 10,
      alertsFailed: 0,
      evidenceJobs: 10,
    });
    expect(await deps.cursors.read(ACCOUNT)).toBe(LAST);
    const publisher = fakePublisherOf(deps);
    expect(publisher.acceptedIds().sort()).toEqual(everyAlert);
    for (const queue of Object.values(queues)) expect(queue.refused).toEqual([]);
    expect(alertIdsOf(queues.evidence.jobs())).toEqual(everyAlert);
    expect(alertIdsOf(queues.webhook.jobs())).toEqual(everyAlert);
    expect(alertIdsOf(queues.escalation.jobs())).toEqual(everyAlert);
    expect(observations.filter((observation) => observation.type === "record-set-aside")).toEqual([]);
    expect(setAside.ops.notices).toEqual([]);

    // The jobs carry the device cloud's values exactly as sent (escaped on the wire, not changed).
    const evidence = queues.evidence.jobs<{ deviceid: string; alert: Record<string, unknown> }>();
    for (const identity of HOSTILE) {
      const job = evidence.find((candidate) => candidate.deviceid === identity.deviceid);
      expect(job?.alert).toMatchObject({ vehicleid: identity.vehicleid, drivername: identity.drivername });
    }
    const webhook = queues.webhook.jobs<{ alert: { drivername: string } }>();
    expect(webhook.map((job) => job.alert.drivername)).toContain("Ada\uFFFFLovelace");
    // On the wire, the non-characters SQS refuses travel as escapes.
    expect(queues.evidence.sent.some((message) => message.body.includes("Ada\\uffffLovelace"))).toBe(true);
  });

  it("sets aside a job the queue still refuses, with its reason, tells ops once, and sends everything else", async () => {
    const refusing = new FakeJobQueue((message) =>
      message.body.includes('"deviceid":"D-emoji"') ? "KMS.DisabledException: refused for good" : undefined,
    );
    const crashed = world(refusing);
    // The first run crashes once its first jobs are queued, before the ledger remembers them: the
    // replay meets the same refusal.
    let crashesSoFar = 0;
    const crashOnce = (step: PollStep) => {
      if (step === "jobs-queued" && crashesSoFar++ === 0) throw new Error("crash after jobs-queued");
    };
    await expect(
      pollAccount(
        SETTINGS,
        { ...crashed.deps, checkpoint: crashOnce },
        { deadlineMs: Number.POSITIVE_INFINITY },
      ),
    ).rejects.toThrow(/crash/);
    const summary = await pollAccount(SETTINGS, crashed.deps, { deadlineMs: Number.POSITIVE_INFINITY });

    expect(summary.outcome).toBe("caught-up");
    expect(await crashed.deps.cursors.read(ACCOUNT)).toBe(LAST);
    expect(fakePublisherOf(crashed.deps).acceptedIds().sort()).toEqual(everyAlert);
    const emoji = alertIdsOfDevice("D-emoji");
    // The replay sends again what the crash kept the ledger from remembering (consumers take a job once).
    expect(new Set(alertIdsOf(crashed.queues.evidence.jobs()))).toEqual(
      new Set(everyAlert.filter((id) => !emoji.includes(id))),
    );
    // The other jobs of the same alerts went: only what was refused is set aside.
    expect(new Set(alertIdsOf(crashed.queues.webhook.jobs()))).toEqual(new Set(everyAlert));
    expect(new Set(alertIdsOf(crashed.queues.escalation.jobs()))).toEqual(new Set(everyAlert));

    const setAside = crashed.observations.filter((observation) => observation.type === "record-set-aside");
    expect(setAside.map((entry) => entry.alertId).sort()).toEqual(emoji);
    for (const entry of setAside)
      expect(entry).toMatchObject({
        account: ACCOUNT,
        deviceid: "D-emoji",
        ruleId: "crash",
        step: "evidence-job",
        reason: "KMS.DisabledException: refused for good",
      });
    expect(crashed.setAside.records.all()).toHaveLength(emoji.length);
    expect(crashed.setAside.records.all().every((entry) => entry.toldAtMs !== undefined)).toBe(true);
    // Told once, though the replay met the refusal again.
    expect(crashed.setAside.ops.notices).toHaveLength(1);
    const [notice] = crashed.setAside.ops.notices;
    expect(notice?.subject).toBe("fleet-alerts: 2 records set aside in account east");
    for (const id of emoji) expect(notice?.text).toContain(id);
    expect(notice?.text).toContain("evidence job was not queued");
  });

  it("sets aside an alert whose record DynamoDB would refuse (an event of 500 KB) and sends the others", async () => {
    const { deps, fake, observations, setAside } = world();
    const huge = fake.client.events.find((event) => event.deviceid === "D-plain-1") as DeviceEvent;
    Object.assign(huge, { memo: "m".repeat(500_000) });
    const summary = await pollAccount(SETTINGS, deps, { deadlineMs: Number.POSITIVE_INFINITY });

    const hugeId = `${ACCOUNT}:${huge.serialno}:crash`;
    expect(summary.outcome).toBe("caught-up");
    expect(await deps.cursors.read(ACCOUNT)).toBe(LAST);
    expect(fakePublisherOf(deps).acceptedIds().sort()).toEqual(everyAlert.filter((id) => id !== hugeId));
    expect(observations.filter((observation) => observation.type === "record-set-aside")).toEqual([
      expect.objectContaining({
        alertId: hugeId,
        step: "record",
        reason: expect.stringMatching(/^alert record of about \d+ bytes, over the/),
      }),
    ]);
    expect(setAside.ops.notices).toHaveLength(1);
  });

  it("sets aside an alert SNS refuses for good, keeping it failed, and sends the others", async () => {
    const { deps, fake, observations, setAside } = world();
    const refused = `${ACCOUNT}:${START + 2n}:crash`;
    fakePublisherOf(deps).verdict = (alert) => (alert.alertId === refused ? "permanent" : "ok");
    const summary = await pollAccount(SETTINGS, deps, { deadlineMs: Number.POSITIVE_INFINITY });

    expect(summary).toMatchObject({ outcome: "caught-up", alertsPublished: 9, alertsFailed: 1 });
    expect(await deps.cursors.read(ACCOUNT)).toBe(LAST);
    expect(fake.alerts.all().find((record) => record.alertId === refused)).toMatchObject({
      status: "failed",
    });
    expect(observations.filter((observation) => observation.type === "record-set-aside")).toEqual([
      expect.objectContaining({ alertId: refused, step: "publish", reason: "permanent" }),
    ]);
    expect(setAside.ops.notices).toHaveLength(1);
  });
});

/** The alert ids of one device's events. */
function alertIdsOfDevice(deviceid: string): string[] {
  return crashes()
    .filter((event) => event.deviceid === deviceid)
    .map((event) => `${ACCOUNT}:${event.serialno}:crash`)
    .sort();
}

function fakePublisherOf(deps: PollerDependencies) {
  return deps.publisher as ReturnType<typeof fakePollerDependencies>["deps"]["publisher"];
}
