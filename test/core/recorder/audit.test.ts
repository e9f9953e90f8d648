import type { AlertBody } from "@fleet-alerts/core/alerts";
import { type RecorderAuditDependencies, runRecorderAudit } from "@fleet-alerts/core/recorder";
import { afterEach, describe, expect, it } from "vitest";
import { FakeRecorderHealth, fakePollerDependencies } from "../../support/fakes/index.js";
import { AUDIT_SETTINGS, auditedDay, DAY_START, drivingStretch } from "./scenario.js";

type World = Awaited<ReturnType<typeof auditedDay>>;
let world: World | undefined;
afterEach(async () => {
  await world?.simulator.close();
  world = undefined;
});

function audit(day: World, health = new FakeRecorderHealth(), fakes = fakePollerDependencies(0)) {
  const deps = {
    ...fakes.deps,
    client: day.client,
    health,
    now: day.now,
  } satisfies RecorderAuditDependencies;
  return {
    deps,
    observations: fakes.observations,
    run: (settings = AUDIT_SETTINGS) => runRecorderAudit(settings, deps, Number.POSITIVE_INFINITY),
  };
}

const bodyOf = (alert: { message: { default: string } }) => JSON.parse(alert.message.default) as AlertBody;

describe("the recorder audit on the simulator", () => {
  it("raises exactly one not-recording alert for 20 minutes driven with the camera failed, naming the device and the gap", async () => {
    world = await auditedDay();
    const failed = drivingStretch(world.simulator, world.devices, 20);
    world.simulator.control.setRecording(failed.deviceid, new Date(failed.fromMs), new Date(failed.toMs), 3);
    const { deps, observations, run } = audit(world);

    const summary = await run();

    expect(summary).toMatchObject({ outcome: "done", devicesAudited: 6, failures: 0 });
    const gaps = observations.filter(
      (line) => line.type === "recorder-gap" && line.deviceid === failed.deviceid,
    );
    expect(gaps).toEqual([
      expect.objectContaining({
        from: new Date(failed.fromMs).toISOString(),
        to: new Date(failed.toMs).toISOString(),
        minutes: 20,
        kind: "gps-only",
      }),
    ]);
    const sent = deps.publisher.accepted.filter((alert) => bodyOf(alert).deviceid === failed.deviceid);
    expect(sent).toHaveLength(1);
    const [alert] = sent;
    const body = bodyOf(alert as (typeof sent)[number]);
    expect(body).toMatchObject({
      ruleId: "not-recording",
      severity: "warning",
      eventName: "Not recording",
      recorderGap: { minutes: 20, kind: "gps-only" },
    });
    // Where the gap began: on the track the audit read over it.
    expect(body.position?.source).toBe("track");
    const vehicle = world.simulator.control
      .devices()
      .find((device) => device.deviceid === failed.deviceid)?.vehicleid;
    expect(alert?.message.subject).toBe(`[WARNING] Not recording 20 min - ${vehicle} (${body.drivername})`);
    const berlin = (ms: number) =>
      new Date(ms).toLocaleString("sv-SE", { timeZone: "Europe/Berlin" }).replace(",", "");
    expect(alert?.message.email).toContain(`Device ID:  ${failed.deviceid}`);
    expect(alert?.message.email).toContain(
      `drove from ${berlin(failed.fromMs)} Europe/Berlin (UTC+01:00) to ${berlin(failed.toMs)} Europe/Berlin (UTC+01:00) (20 minutes) and only GPS was recorded, no video`,
    );
    expect(alert?.message.sms).toMatch(/^WARNING Not recording 20 min - /);
  });

  it("costs a device held offline all day no record-map or GPS call, and raises nothing for it", async () => {
    world = await auditedDay();
    world.simulator.control.resetRequests();
    const { deps, observations, run } = audit(world);
    await run();
    const parked = await deps.health.device("north", world.parked);
    expect(parked).toMatchObject({ status: "not-reporting", periodStartMs: DAY_START });
    expect(
      observations.filter((line) => line.type === "recorder-gap" && line.deviceid === world?.parked),
    ).toEqual([]);
    const calls = world.simulator.control.requests.map((request) => request.endpoint);
    expect(calls.filter((endpoint) => endpoint === "alllist")).toHaveLength(1);
    // One map per reporting device, and its retention probes: none for the parked one.
    const maps = calls.filter((endpoint) => endpoint === "record").length;
    expect(maps).toBeGreaterThanOrEqual(5);
    expect(summaryOf(observations)?.calls).toBe(calls.length);
  });

  it("raises nothing new when the period is audited again, from its cursor or from scratch", async () => {
    world = await auditedDay();
    const failed = drivingStretch(world.simulator, world.devices, 20);
    world.simulator.control.setRecording(failed.deviceid, new Date(failed.fromMs), new Date(failed.toMs), 0);
    const fakes = fakePollerDependencies(0);
    const first = audit(world, new FakeRecorderHealth(), fakes);
    await first.run();
    const sent = first.deps.publisher.acceptedIds();
    expect(sent.filter((id) => id.endsWith(":not-recording")).length).toBeGreaterThanOrEqual(1);

    expect(await first.run()).toMatchObject({ outcome: "idle", calls: 0 });
    // A lost cursor (or a crash before it moved) audits the day again: the same records are found.
    const again = audit(world, new FakeRecorderHealth(), fakes);
    expect(await again.run()).toMatchObject({ outcome: "done", devicesAudited: 6 });
    expect(again.deps.publisher.acceptedIds()).toEqual(sent);
    expect(fakes.observations.filter((line) => line.type === "recorder-gap")).toHaveLength(
      sent.filter((id) => id.endsWith(":not-recording")).length,
    );
  });

  it("spreads the fleet over runs within callsPerRun, every device audited once", async () => {
    world = await auditedDay();
    const health = new FakeRecorderHealth();
    const { run } = audit(world, health);
    const small = { ...AUDIT_SETTINGS, audit: { ...AUDIT_SETTINGS.audit, callsPerRun: 60 } };
    const outcomes = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const summary = await run(small);
      outcomes.push(summary.outcome);
      expect(summary.calls).toBeLessThanOrEqual(60);
      if (summary.outcome === "idle") break;
    }
    expect(outcomes.filter((outcome) => outcome === "budget").length).toBeGreaterThanOrEqual(1);
    expect(outcomes.at(-1)).toBe("idle");
    expect(health.audits.map((entry) => entry.deviceid).sort()).toEqual([...(world?.devices ?? [])].sort());
  });

  it("observes a device whose calls fail and goes on with the others", async () => {
    world = await auditedDay();
    // The first device in id order reads the first record map: its answer is broken.
    const broken = [...world.devices].sort()[0];
    world.simulator.control.faults.add({ endpoint: "record", kind: "malformedJson", times: 1 });
    const { deps, observations, run } = audit(world);
    const summary = await run();
    expect(summary).toMatchObject({ outcome: "done", failures: 1, devicesAudited: 5 });
    expect(observations).toContainEqual(
      expect.objectContaining({ type: "recorder-audit-failed", deviceid: broken }),
    );
    expect(await deps.health.cursor("north")).toMatchObject({ done: true });
  });
});

function summaryOf(observations: { type: string }[]) {
  return observations.find((line) => line.type === "recorder-audit-summary") as { calls: number } | undefined;
}
